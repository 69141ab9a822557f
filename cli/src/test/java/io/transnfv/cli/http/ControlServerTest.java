package io.transnfv.cli.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.GatedPacketSource;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PrefixSource;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.instance.KeyFormat;
import io.transnfv.vnf.packet.FiveTupleFormat;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The control plane against a running engine, through a real HTTP client: every route, bad
 * routes, methods and parameters, a stop, and scrapes from several clients at once while the
 * run goes at full speed, whose outputs must still equal the serial oracle's.
 */
class ControlServerTest
{
    private static final long PACKETS = 300_000;
    /** Where the gated source holds the run until the scrapes have seen it there. */
    private static final long GATE_AT = 100_000;
    private static final int SCRAPERS = 4;
    private static final int SCRAPES_WHILE_HELD = 40;
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE);

    private final HttpClient client = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception
    {
        // the servers first, then the engines they watch
        for (int i = toClose.size() - 1; i >= 0; i--)
        {
            toClose.get(i).close();
        }
    }

    @Test
    @Timeout(300)
    void shouldKeepTheRunEqualToTheOracleWhileSeveralClientsScrapeMetricsAndStatus() throws Exception
    {
        final ChainSpec chain = chain(PACKETS);
        final AtomicInteger opened = new AtomicInteger();
        final AtomicBoolean seenAtGate = new AtomicBoolean();
        final AtomicInteger scrapesWhileHeld = new AtomicInteger();
        final AtomicBoolean done = new AtomicBoolean();
        final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        final AtomicReference<ChainExecutor> candidate = new AtomicReference<>();
        final List<Thread> scrapers = new ArrayList<>();
        final AtomicInteger scrapes = new AtomicInteger();

        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () ->
        {
            final PacketSource generated = PacketSources.open(chain.settings().traffic());
            // the oracle reads first; the candidate's traffic stops at the gate until the scrapers have seen it there
            return opened.incrementAndGet() == 1 ? generated
                : GatedPacketSource.heldAt(generated, GATE_AT, () -> seenAtGate.get() && scrapesWhileHeld.get() >= SCRAPES_WHILE_HELD);
        }, spec ->
        {
            final ChainExecutor executor = tpg(spec);
            candidate.set(executor);
            final ControlServer server = start(executor, PACKETS);
            for (int s = 0; s < SCRAPERS; s++)
            {
                final Thread scraper = new Thread(() -> scrape(server.url(), done, seenAtGate, scrapesWhileHeld, scrapes, problems),
                    "scraper-" + s);
                scraper.start();
                scrapers.add(scraper);
            }
            return executor;
        });
        // the run has ended (and its executor is closed); the server still answers with its final figures
        final Map<String, Double> last = metrics(get(urlOf(candidate.get()), "/metrics"));
        done.set(true);
        for (final Thread scraper : scrapers)
        {
            scraper.join();
        }

        assertTrue(result.equivalent(), () -> "scraped while running, the engine diverged from the oracle: " + result);
        assertEquals(PACKETS, result.packets());
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
        assertTrue(scrapes.get() >= SCRAPES_WHILE_HELD, "scrapes: " + scrapes.get());
        final RunStats stats = candidate.get().stats();
        assertEquals(1.0, last.get("transnfv_run_finished"));
        assertEquals((double)PACKETS, last.get("transnfv_packets_finished_total"));
        assertEquals((double)stats.forwarded(), last.get("transnfv_packets_forwarded_total"));
        assertEquals((double)stats.forwardedBytes(), last.get("transnfv_forwarded_bytes_total"));
        assertEquals((double)stats.droppedTotal(), sum(last, "transnfv_packets_dropped_total"));
        assertEquals((double)stats.alertsTotal(), sum(last, "transnfv_alerts_total"));
        assertEquals((double)stats.latencyNs().getTotalCount(), last.get("transnfv_packet_latency_seconds_count"));
        assertTrue(stats.alertsTotal() > 0, "the traffic raises alerts, so their counter is checked against something");
    }

    @Test
    @Timeout(300)
    void shouldLookUpKeysBetweenTwoBatchesWithTheOraclesValuesAtThatPacket() throws Exception
    {
        final ChainSpec chain = chain(60_000);
        final long heldAt = 20_000;
        final int servers = 64;
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 60_000);
        final AtomicBoolean release = new AtomicBoolean();
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread run = runHeld(executor, chain, heldAt, release, failed);

        // held at the gate: once the engine has every packet before it in the state, look up every server's load
        JsonNode first;
        do
        {
            first = json.readTree(get(server.url(), "/state/lb/active?key=0").body());
        }
        while (first.get("after_packets").asLong() != heldAt);
        final long[] held = new long[servers];
        for (int k = 0; k < servers; k++)
        {
            final JsonNode answer = json.readTree(get(server.url(), "/state/lb/active?key=" + k).body());
            assertEquals(heldAt, answer.get("after_packets").asLong(), answer::toPrettyString);
            assertEquals("lb.active", answer.get("table").asText());
            assertNull(answer.get("fields"), "a value table's answer has no fields");
            held[k] = answer.get("value").asLong();
        }
        release.set(true);
        run.join();
        assertNull(failed.get());

        // the oracle after the same packets holds the same values
        final int table = tableIndex(executor, "lb.active");
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource prefix = new PrefixSource(PacketSources.open(chain.settings().traffic()), heldAt))
        {
            oracle.run(prefix, null);
            long total = 0;
            for (int k = 0; k < servers; k++)
            {
                assertEquals(oracle.committedState().orElseThrow().get(table, k), held[k], "server " + k);
                total += held[k];
            }
            assertTrue(total > 0, "the servers hold connections: the comparison is about something");
        }
        // after the run: the final state, said to be final
        for (int k = 0; k < servers; k++)
        {
            final JsonNode answer = json.readTree(get(server.url(), "/state/lb/active?key=" + k).body());
            assertTrue(answer.get("final").asBoolean(), answer::toPrettyString);
            assertEquals(executor.committedState().orElseThrow().get(table, k), answer.get("value").asLong());
        }
    }

    @Test
    @Timeout(300)
    void shouldShowOneFlowAcrossTheChainWithTheOraclesValuesAtThatPacket() throws Exception
    {
        final ChainSpec chain = chain(60_000);
        final long heldAt = 20_000;
        // a flow of the traffic, translated by the NAT: the last TCP or UDP packet from inside before the gate
        String tuple = null;
        int src = 0;
        int srcPort = 0;
        int protocol = 0;
        try (PacketSource traffic = new PrefixSource(PacketSources.open(chain.settings().traffic()), heldAt))
        {
            final PacketBuffer buffer = new PacketBuffer();
            final PacketFlyweight p = new PacketFlyweight();
            while (traffic.next(buffer))
            {
                p.wrap(buffer.data(), buffer.offset(), buffer.length());
                if (p.isIpv4WithPorts() && (p.srcIpv4() >>> 24) == 10 && !p.isFin() && !p.isRst())
                {
                    tuple = FiveTupleFormat.format(p);
                    src = p.srcIpv4();
                    srcPort = p.srcPort();
                    protocol = p.ipProtocol();
                }
            }
        }
        assertTrue(tuple != null, "the traffic has a translated flow before the gate");
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 60_000);
        final AtomicBoolean release = new AtomicBoolean();
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread run = runHeld(executor, chain, heldAt, release, failed);

        // the output records' spelling, as an operator would paste it
        final String path = "/flows?tuple=" + URLEncoder.encode(tuple, StandardCharsets.UTF_8);
        JsonNode flow;
        do
        {
            flow = json.readTree(get(server.url(), path).body());
        }
        while (flow.get("after_packets").asLong() != heldAt);
        release.set(true);
        run.join();
        assertNull(failed.get());
        assertEquals(tuple, flow.get("tuple").asText());
        final JsonNode shown = flow;

        final JsonNode vnfs = flow.get("vnfs");
        assertEquals(List.of("nat", "lb", "td"), List.of(vnfs.get(0).get("vnf").asText(), vnfs.get(1).get("vnf").asText(),
            vnfs.get(2).get("vnf").asText()));
        final String mappingKey = KeyFormat.format(KeyKind.ENDPOINT, FlowKeys.endpoint(src, srcPort, protocol));
        boolean mapped = false;
        int entries = 0;
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource prefix = new PrefixSource(PacketSources.open(chain.settings().traffic()), heldAt))
        {
            oracle.run(prefix, null);
            for (final JsonNode vnf : vnfs)
            {
                for (final JsonNode entry : vnf.get("entries"))
                {
                    final int table = tableIndex(executor, entry.get("table").asText());
                    final long key = KeyFormat.parse(executor.runtime().catalog().spec(table).keyKind(), entry.get("key").asText());
                    assertEquals(oracle.committedState().orElseThrow().get(table, key), entry.get("value").asLong(),
                        entry::toString);
                    entries++;
                    if ("nat.mappings".equals(entry.get("table").asText()) && mappingKey.equals(entry.get("key").asText()))
                    {
                        mapped = entry.get("present").asBoolean();
                    }
                }
            }
        }
        assertTrue(mapped, () -> "the NAT's mapping of " + mappingKey + " is shown, present: " + shown.toPrettyString());
        assertTrue(entries >= 3, () -> "every VNF's entries are shown: " + shown.toPrettyString());
    }

    @Test
    @Timeout(120)
    void shouldAnswerBadFlowTuplesWithJsonErrors() throws Exception
    {
        final ChainSpec chain = chain(1_000);
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 1_000);
        final HttpResponse<String> none = get(server.url(), "/flows");
        assertEquals(400, none.statusCode());
        assertError(none, "/flows needs one ?tuple=", "PROTO:SRC:SPORT-DST:DPORT");
        final HttpResponse<String> garbage = get(server.url(), "/flows?tuple=hello");
        assertEquals(400, garbage.statusCode());
        assertError(garbage, "'hello' is not a flow tuple", "PROTO:SRC:SPORT-DST:DPORT");
        final HttpResponse<String> noPort = get(server.url(), "/flows?tuple=tcp:10.0.0.1-10.0.0.2:80");
        assertEquals(400, noPort.statusCode());
        assertError(noPort, "tcp needs a port at both ends", "PROTO:SRC:SPORT-DST:DPORT");
        final HttpResponse<String> badAddress = get(server.url(), "/flows?tuple=udp:10.0.0.300:1-10.0.0.2:80");
        assertEquals(400, badAddress.statusCode());
        assertError(badAddress, "10.0.0.300", "PROTO:SRC:SPORT-DST:DPORT");
        final HttpResponse<String> other = get(server.url(), "/flows?tuple=udp:10.0.0.1:1-10.0.0.2:80&vnf=nat");
        assertEquals(400, other.statusCode());
        assertError(other, "takes only 'tuple', got 'vnf'", "?tuple=");
        assertEquals(405, send(server.url(), "/flows?tuple=udp:10.0.0.1:1-10.0.0.2:80", "POST").statusCode());
        // an IPv6 flow after the run: every VNF is shown, from the final state
        try (PacketSource traffic = PacketSources.open(chain.settings().traffic()))
        {
            executor.run(traffic, null);
        }
        final HttpResponse<String> v6 = get(server.url(), "/flows?tuple="
            + URLEncoder.encode("udp:[2001:db8::1]:53-[2001:db8::2]:5353", StandardCharsets.UTF_8));
        assertEquals(200, v6.statusCode(), v6.body());
        final JsonNode flow = json.readTree(v6.body());
        assertEquals("udp [2001:db8::1]:53>[2001:db8::2]:5353", flow.get("tuple").asText());
        assertTrue(flow.get("final").asBoolean(), v6.body());
        assertEquals(3, flow.get("vnfs").size(), v6.body());
    }

    @Test
    @Timeout(300)
    void shouldPageThroughATableAtOnePointWithTheOraclesEntries() throws Exception
    {
        final ChainSpec chain = chain(60_000);
        final long heldAt = 20_000;
        final int limit = 150;
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 60_000);
        final AtomicBoolean release = new AtomicBoolean();
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread run = runHeld(executor, chain, heldAt, release, failed);
        JsonNode first;
        do
        {
            first = json.readTree(get(server.url(), "/state/nat/mappings?limit=" + limit).body());
        }
        while (first.get("after_packets").asLong() != heldAt);
        assertEquals("slot", first.get("order").asText());
        final HttpResponse<String> wrongOrder = get(server.url(), "/state/nat/mappings?after=k10");
        assertEquals(400, wrongOrder.statusCode());
        assertError(wrongOrder, "cursor of a key-order page", "previous page's 'next'");

        // held at the gate: every page is read at the same packet, so together they are the table then
        final Map<String, Long> paged = new HashMap<>();
        int pages = 0;
        JsonNode page = first;
        while (true)
        {
            assertEquals(heldAt, page.get("after_packets").asLong(), page::toPrettyString);
            assertTrue(page.get("entries").size() <= limit, "a page of " + page.get("entries").size());
            for (final JsonNode entry : page.get("entries"))
            {
                assertNull(paged.put(entry.get("key").asText(), entry.get("value").asLong()), "given twice: " + entry);
                // a mapping is a packed record: its fields beside its value, in the NAT's encoding
                final long value = entry.get("value").asLong();
                final JsonNode fields = entry.get("fields");
                final List<String> names = new ArrayList<>();
                fields.fieldNames().forEachRemaining(names::add);
                assertEquals(List.of("seen", "address", "port"), names, entry::toString);
                assertEquals(value >>> 24, fields.get("seen").asLong(), entry::toString);
                assertEquals((value >>> 16) & 0xFF, fields.get("address").asLong(), entry::toString);
                assertEquals(value & 0xFFFF, fields.get("port").asLong(), entry::toString);
            }
            pages++;
            if (!page.has("next"))
            {
                break;
            }
            page = json.readTree(get(server.url(), "/state/nat/mappings?limit=" + limit + "&after=" + page.get("next").asText())
                .body());
        }
        final String someKey = paged.keySet().iterator().next();
        final JsonNode one = json.readTree(get(server.url(), "/state/nat/mappings?key=" + URLEncoder.encode(someKey, StandardCharsets.UTF_8))
            .body());
        assertEquals(paged.get(someKey) & 0xFFFF, one.get("fields").get("port").asLong(), one::toPrettyString);
        assertEquals(paged.get(someKey) >>> 24, one.get("fields").get("seen").asLong(), one::toPrettyString);
        release.set(true);
        run.join();
        assertNull(failed.get());

        final int table = tableIndex(executor, "nat.mappings");
        final Map<String, Long> expected = new HashMap<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource prefix = new PrefixSource(PacketSources.open(chain.settings().traffic()), heldAt))
        {
            oracle.run(prefix, null);
            oracle.committedState().orElseThrow().forEach(table, (key, value) -> expected.put(KeyFormat.format(KeyKind.ENDPOINT,
                key), value));
        }
        assertTrue(expected.size() > 3 * limit, "the table spans several pages: " + expected.size());
        assertEquals(expected, paged);
        assertTrue(pages > expected.size() / limit, "pages: " + pages);
    }

    @Test
    @Timeout(120)
    void shouldPageTheSerialOraclesTablesInKeyOrder() throws Exception
    {
        final ChainSpec chain = chain(20_000);
        final SerialChainExecutor serial = new SerialChainExecutor(chain);
        toClose.add(serial);
        final ControlServer server = start(serial, 20_000);
        try (PacketSource traffic = PacketSources.open(chain.settings().traffic()))
        {
            serial.run(traffic, null);
        }
        final int table = tableIndex(serial, "lb.connections");
        final List<Long> expected = new ArrayList<>();
        serial.committedState().orElseThrow().forEach(table, (key, value) -> expected.add(key));
        final List<Long> paged = new ArrayList<>();
        String path = "/state/lb/connections?limit=64";
        while (true)
        {
            final JsonNode page = json.readTree(get(server.url(), path).body());
            assertTrue(page.get("final").asBoolean(), page::toPrettyString);
            assertEquals("key", page.get("order").asText());
            for (final JsonNode entry : page.get("entries"))
            {
                paged.add(KeyFormat.parse(KeyKind.FLOW, entry.get("key").asText()));
            }
            if (!page.has("next"))
            {
                break;
            }
            path = "/state/lb/connections?limit=64&after=" + page.get("next").asText();
        }
        assertTrue(expected.size() > 128, "several pages: " + expected.size());
        assertEquals(expected, paged);
    }

    @Test
    @Timeout(120)
    void shouldStreamSnapshotsAsServerSentEvents() throws Exception
    {
        final ChainSpec chain = chain(5_000);
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 5_000);
        try (PacketSource traffic = PacketSources.open(chain.settings().traffic()))
        {
            executor.run(traffic, null);
        }
        final HttpResponse<java.util.stream.Stream<String>> stream = client.send(HttpRequest.newBuilder(
            URI.create(server.url() + "/events")).build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, stream.statusCode());
        assertTrue(stream.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
        final List<JsonNode> events = new ArrayList<>();
        final java.util.Iterator<String> lines = stream.body().iterator();
        String event = null;
        while (events.size() < 2)
        {
            final String line = lines.next();
            if (line.startsWith("event: "))
            {
                event = line.substring(7);
            }
            else if (line.startsWith("data: "))
            {
                assertEquals("snapshot", event);
                events.add(json.readTree(line.substring(6)));
            }
        }
        stream.body().close();
        for (final JsonNode snapshot : events)
        {
            assertEquals("finished", snapshot.get("status").get("state").asText(), snapshot::toString);
            assertEquals(5_000, snapshot.get("status").get("progress").get("packets_finished").asLong());
            final Map<String, Double> metrics = metrics(snapshot.get("metrics").asText());
            assertEquals(5_000.0, metrics.get("transnfv_packets_finished_total"));
        }
        // a new client: the one that read the stream may still hand out the connection its close is tearing down
        final HttpClient fresh = HttpClient.newHttpClient();
        final HttpResponse<String> head = fresh.send(HttpRequest.newBuilder(URI.create(server.url() + "/events"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertTrue(head.body().isEmpty());
        assertEquals(405, fresh.send(HttpRequest.newBuilder(URI.create(server.url() + "/events"))
            .method("POST", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    @Timeout(120)
    void shouldAnswerBadStateLookupsWithJsonErrors() throws Exception
    {
        final ChainSpec chain = chain(1_000);
        final ControlServer server = start(tpg(chain), 1_000);
        final HttpResponse<String> table = get(server.url(), "/state/lb/nope?key=1");
        assertEquals(404, table.statusCode());
        assertError(table, "no table 'lb.nope' in this chain", "lb.active");
        final HttpResponse<String> twoKeys = get(server.url(), "/state/lb/active?key=1&key=2");
        assertEquals(400, twoKeys.statusCode());
        assertError(twoKeys, "takes one ?key=", "a whole number");
        final HttpResponse<String> keyAndPage = get(server.url(), "/state/lb/active?key=1&limit=5");
        assertEquals(400, keyAndPage.statusCode());
        assertError(keyAndPage, "not both", "?limit=N&after=NEXT");
        final HttpResponse<String> zero = get(server.url(), "/state/lb/active?limit=0");
        assertEquals(400, zero.statusCode());
        assertError(zero, "a page holds 1 to 1000 entries, not 0", "?limit= from 1 to 1000");
        final HttpResponse<String> words = get(server.url(), "/state/lb/active?limit=ten");
        assertEquals(400, words.statusCode());
        assertError(words, "'ten' is not a page size", "?limit= from 1 to 1000");
        final HttpResponse<String> cursor = get(server.url(), "/state/lb/active?after=zz");
        assertEquals(400, cursor.statusCode());
        assertError(cursor, "'zz' is not a page cursor", "previous page's 'next'");
        final HttpResponse<String> badKey = get(server.url(), "/state/nat/mappings?key=10.0.0.1");
        assertEquals(400, badKey.statusCode());
        assertError(badKey, "'10.0.0.1' is not a", "as the state dump");
        final HttpResponse<String> other = get(server.url(), "/state/lb/active?key=1&page=2");
        assertEquals(400, other.statusCode());
        assertError(other, "takes 'key', or 'limit' and 'after', got 'page'", "?key=");
        assertEquals(405, send(server.url(), "/state/lb/active?key=1", "POST").statusCode());
    }

    @Test
    @Timeout(120)
    void shouldServeStatusWithTheChainExecutorProgressAndRates() throws Exception
    {
        final ChainSpec chain = chain(20_000);
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 20_000);
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            executor.run(source, null);
        }
        final HttpResponse<String> response = get(server.url(), "/status");
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        final JsonNode status = json.readTree(response.body());
        assertEquals("nat-lb-td", status.get("chain").asText());
        assertEquals("finished", status.get("state").asText());
        assertEquals("tpg", status.get("executor").get("kind").asText());
        assertEquals(20_000, status.get("progress").get("packets_finished").asLong());
        assertEquals(20_000, status.get("progress").get("packets_expected").asLong());
        assertEquals(executor.stats().forwarded(), status.get("progress").get("packets_forwarded").asLong());
        assertTrue(status.get("rates").has("packets_per_second_last_second"), status::toPrettyString);
        assertTrue(status.get("rates").has("packets_per_second_last_minute"), status::toPrettyString);
        assertTrue(status.get("scheduler_decisions").size() > 0, status::toPrettyString);
        assertFalse(status.get("stop").get("requested").asBoolean());

        final Map<String, Double> metrics = metrics(get(server.url(), "/metrics"));
        assertTrue(metrics.get("transnfv_worker_time_seconds_total{category=\"execute\"}") > 0, metrics::toString);
        assertTrue(metrics.get("transnfv_batches_total") > 0, metrics::toString);
        assertTrue(sum(metrics, "transnfv_scheduler_decisions_total") > 0, metrics::toString);
        assertTrue(sum(metrics, "transnfv_state_entries") > 0, metrics::toString);
        assertTrue(sum(metrics, "transnfv_state_capacity_entries") > 0, metrics::toString);
        assertEquals(0.0, sum(metrics, "transnfv_state_full"), "nothing full: " + metrics);
    }

    @Test
    @Timeout(120)
    void shouldAnswerUnknownRoutesWrongMethodsAndParametersWithJsonErrors() throws Exception
    {
        final ChainSpec chain = chain(1_000);
        final ControlServer server = start(tpg(chain), 1_000);

        final HttpResponse<String> unknown = get(server.url(), "/nope");
        assertEquals(404, unknown.statusCode());
        assertError(unknown, "no route GET /nope", "/metrics");

        final HttpResponse<String> postMetrics = send(server.url(), "/metrics", "POST");
        assertEquals(405, postMetrics.statusCode());
        assertEquals("GET, HEAD", postMetrics.headers().firstValue("allow").orElse(""));
        assertError(postMetrics, "/metrics takes GET, not POST", "send GET /metrics");

        final HttpResponse<String> getStop = get(server.url(), "/stop");
        assertEquals(405, getStop.statusCode());
        assertEquals("POST", getStop.headers().firstValue("allow").orElse(""));

        final HttpResponse<String> parameter = get(server.url(), "/status?verbose=1");
        assertEquals(400, parameter.statusCode());
        assertError(parameter, "takes no parameters, got 'verbose'", "without a query string");

        final HttpResponse<String> tooLarge = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/stop"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[ControlServer.MAX_REQUEST_BYTES + 1])).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(413, tooLarge.statusCode());
    }

    @Test
    @Timeout(120)
    void shouldStopTheRunGracefullyOnPostStopAsOnSigterm() throws Exception
    {
        final ChainSpec chain = chain(1_000_000);
        final ChainExecutor executor = tpg(chain);
        final ByteArrayOutputStream notices = new ByteArrayOutputStream();
        final ControlServer server = start(executor, 1_000_000, new PrintStream(notices, true, StandardCharsets.UTF_8));
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        // the traffic never gets past packet 1000: only the stop can end this run
        final Thread run = new Thread(() ->
        {
            try (PacketSource source = GatedPacketSource.heldAt(PacketSources.open(chain.settings().traffic()), 1_000, () -> false))
            {
                executor.run(source, null);
            }
            catch (final Throwable t)
            {
                failed.set(t);
            }
        }, "run");
        run.start();

        final HttpResponse<String> first = send(server.url(), "/stop", "POST");
        assertEquals(202, first.statusCode(), first.body());
        final JsonNode body = json.readTree(first.body());
        assertTrue(body.get("first_request").asBoolean());
        assertEquals("terminate", body.get("cause").asText());
        run.join();
        assertNull(failed.get());
        assertEquals(RunControl.StopCause.TERMINATE, executor.control().stopCause());
        assertEquals(143, executor.control().stopCause().exitStatus());
        assertTrue(executor.stats().packetsFinished() <= 1_000);
        assertTrue(notices.toString(StandardCharsets.UTF_8).contains("POST /stop: finishing the batch in flight"));

        final HttpResponse<String> again = send(server.url(), "/stop", "POST");
        assertEquals(200, again.statusCode());
        assertFalse(json.readTree(again.body()).get("first_request").asBoolean());
        assertEquals("finished", json.readTree(get(server.url(), "/status").body()).get("state").asText());
    }

    @Test
    void shouldServeTheLivePageSelfContainedFromTheJar() throws Exception
    {
        final ControlServer server = start(tpg(chain(1_000)), 1_000);
        final HttpResponse<String> page = get(server.url(), "/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("content-type").orElse("").startsWith("text/html"));
        // it follows the run's event stream, and polls nothing
        assertTrue(page.body().contains("new EventSource(\"/events\")"), page.body());
        assertFalse(page.body().contains("fetch("), page.body());
        // nothing fetched from elsewhere: no CDN, no external script or style
        assertFalse(page.body().contains("http://") || page.body().contains("https://") || page.body().contains("src="),
            "the page loads nothing from elsewhere");
    }

    @Test
    void shouldAnswerHeadOnMetricsWithItsHeadersAndNoBody() throws Exception
    {
        final ChainSpec chain = chain(1_000);
        final ChainExecutor executor = tpg(chain);
        final ControlServer server = start(executor, 1_000);
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            executor.run(source, null);
        }
        final HttpResponse<String> head = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/metrics"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertTrue(head.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
    }

    // ---------------------------------------------------------------- helpers

    /** One scraper: GET /metrics and /status in turn until the run is over, checking each answer. */
    private void scrape(final String url, final AtomicBoolean done, final AtomicBoolean seenAtGate,
        final AtomicInteger scrapesWhileHeld, final AtomicInteger scrapes, final ConcurrentLinkedQueue<String> problems)
    {
        double lastFinished = 0;
        try
        {
            while (!done.get())
            {
                final HttpResponse<String> metrics = get(url, "/metrics");
                if (metrics.statusCode() != 200)
                {
                    problems.add("GET /metrics: " + metrics.statusCode() + " " + metrics.body());
                    return;
                }
                final Map<String, Double> samples = metrics(metrics);
                final double finished = samples.get("transnfv_packets_finished_total");
                // a counter never goes back: each scrape reads one consistent copy, never a half-merged one
                final double accounted = samples.get("transnfv_packets_forwarded_total")
                    + sum(samples, "transnfv_packets_dropped_total");
                if (finished < lastFinished || accounted > finished)
                {
                    problems.add("counters went back or disagree: finished " + lastFinished + " then " + finished
                        + ", forwarded and dropped " + accounted);
                }
                lastFinished = finished;
                if (finished == GATE_AT)
                {
                    // the engine answered while the run is held at the gate: figures are live, not the final ones
                    if (samples.get("transnfv_run_finished") != 0)
                    {
                        problems.add("the run was held at the gate, yet the figures say it finished");
                    }
                    seenAtGate.set(true);
                }
                if (finished <= GATE_AT)
                {
                    scrapesWhileHeld.incrementAndGet();
                }
                final HttpResponse<String> status = get(url, "/status");
                if (status.statusCode() != 200 || !status.body().contains("\"chain\""))
                {
                    problems.add("GET /status: " + status.statusCode() + " " + status.body());
                    return;
                }
                scrapes.incrementAndGet();
            }
        }
        catch (final Exception e)
        {
            problems.add("scrape failed: " + e);
        }
    }

    private final Map<ChainExecutor, String> urls = new HashMap<>();

    private String urlOf(final ChainExecutor executor)
    {
        return urls.get(executor);
    }

    private ControlServer start(final ChainExecutor executor, final long expected)
    {
        return start(executor, expected, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private ControlServer start(final ChainExecutor executor, final long expected, final PrintStream notices)
    {
        final List<String> tables = new ArrayList<>();
        for (int t = 0; t < executor.runtime().catalog().size(); t++)
        {
            tables.add(executor.runtime().catalog().qualifiedName(t));
        }
        final ControlServer server = ControlServer.start(new HttpAddress(HttpAddress.LOOPBACK, 0),
            new RunView("nat-lb-td", Map.of("kind", "tpg"), executor, expected, tables), notices);
        toClose.add(server);
        urls.put(executor, server.url());
        return server;
    }

    private static int tableIndex(final ChainExecutor executor, final String name)
    {
        for (int t = 0; t < executor.runtime().catalog().size(); t++)
        {
            if (executor.runtime().catalog().qualifiedName(t).equals(name))
            {
                return t;
            }
        }
        throw new AssertionError("no table " + name);
    }

    static ChainSpec chain(final long packets) throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled("nat-lb-td");
        final GeneratorConfig traffic = GeneratorConfig.builder().set("packets", Long.toString(packets)).build();
        return bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.generate(traffic)).withExecutorThreads(2));
    }

    /** @return the engine, closed after the test: an engine left open keeps its workers polling for the rest of the suite. */
    private ChainExecutor tpg(final ChainSpec chain)
    {
        final ChainExecutor executor = tpgExecutor(chain);
        toClose.add(executor);
        return executor;
    }

    /** @return the engine with the default strategy, as {@code transnfv run} creates it. */
    static ChainExecutor tpgExecutor(final ChainSpec chain)
    {
        return new BatchedChainExecutor(chain, threads -> TpgBatchExecutor.create(threads, TpgBatchExecutor.DEFAULT_STRATEGY),
            "tpg " + TpgBatchExecutor.DEFAULT_STRATEGY);
    }

    private HttpResponse<String> get(final String url, final String path) throws IOException, InterruptedException
    {
        return send(url, path, "GET");
    }

    private HttpResponse<String> send(final String url, final String path, final String method)
        throws IOException, InterruptedException
    {
        return client.send(HttpRequest.newBuilder(URI.create(url + path)).method(method, HttpRequest.BodyPublishers.noBody())
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private void assertError(final HttpResponse<String> response, final String error, final String fix) throws IOException
    {
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        final JsonNode body = json.readTree(response.body());
        assertTrue(body.get("error").asText().contains(error), response.body());
        assertTrue(body.get("fix").asText().contains(fix), response.body());
    }

    /** @return every sample of an exposition, by name and labels ({@code name{labels}}), and by bare name for unlabelled ones. */
    static Map<String, Double> metrics(final HttpResponse<String> response)
    {
        return metrics(response.body());
    }

    /** @return every sample of an exposition's text, as {@link #metrics(HttpResponse)}. */
    static Map<String, Double> metrics(final String exposition)
    {
        final Map<String, Double> samples = new HashMap<>();
        final Matcher m = SAMPLE.matcher(exposition);
        while (m.find())
        {
            samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
        }
        return samples;
    }

    private static double sum(final Map<String, Double> samples, final String family)
    {
        double total = 0;
        for (final Map.Entry<String, Double> e : samples.entrySet())
        {
            if (e.getKey().startsWith(family + "{"))
            {
                total += e.getValue();
            }
        }
        return total;
    }

    /**
     * Starts {@code executor} on {@code chain}'s traffic in a thread of its own, held before packet
     * {@code heldAt} until {@code release} is set; what the run throws goes to {@code failed}.
     */
    private static Thread runHeld(final ChainExecutor executor, final ChainSpec chain, final long heldAt, final AtomicBoolean release,
        final AtomicReference<Throwable> failed)
    {
        final Thread run = new Thread(() ->
        {
            try (PacketSource source = GatedPacketSource.heldAt(PacketSources.open(chain.settings().traffic()), heldAt, release::get))
            {
                executor.run(source, null);
            }
            catch (final Throwable t)
            {
                failed.set(t);
            }
        }, "run");
        run.start();
        return run;
    }
}
