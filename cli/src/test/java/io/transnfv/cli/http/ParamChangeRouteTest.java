package io.transnfv.cli.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.transnfv.chains.ChainError;
import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GatedPacketSource;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /params/<vnf>} against a running engine, through a real HTTP client: a change
 * applied at the packet the run is held at, bad changes refused with the chain validator's own
 * messages, and a run changed twice over HTTP whose outputs equal the serial oracle's replaying
 * the changes at the packets the run recorded, and neither the oracle's without them nor its
 * replaying them a packet late.
 */
class ParamChangeRouteTest
{
    private final HttpClient client = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception
    {
        for (final AutoCloseable c : toClose)
        {
            c.close();
        }
    }

    @Test
    @Timeout(120)
    void shouldApplyAGoodChangeAndRefuseBadOnesWithTheValidatorsMessages() throws Exception
    {
        final ChainSpec chain = chain(4_000);
        final ChainExecutor executor = ControlServerTest.tpgExecutor(chain);
        final String url = start(executor);
        // after its server: an engine left open keeps its workers polling for the rest of the suite
        toClose.add(executor);
        final AtomicLong allowed = new AtomicLong(1_000);
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread run = run(executor, chain, allowed, new ArrayList<>(), failed);
        awaitFinished(url, 1_000);

        final HttpResponse<String> good = post(url, "/params/scan", "{\"threshold\": 5}");
        assertEquals(200, good.statusCode(), good.body());
        final JsonNode applied = json.readTree(good.body());
        assertTrue(applied.get("applied").asBoolean());
        assertEquals(1_000, applied.get("at_packet").asLong(), "held at packet 1000, nothing else in flight");
        assertEquals("threshold", applied.get("changes").get(0).get("parameter").asText());
        assertEquals(5, applied.get("changes").get(0).get("new_value").asInt());

        final HttpResponse<String> vnf = post(url, "/params/nope", "{\"threshold\": 5}");
        assertEquals(404, vnf.statusCode());
        assertError(vnf, "no VNF 'nope' in this chain", "fw, scan, monitor");

        final HttpResponse<String> name = post(url, "/params/scan", "{\"treshold\": 5}");
        assertEquals(400, name.statusCode());
        assertSameAsValidator(name, "scan", "treshold: 5");

        final HttpResponse<String> type = post(url, "/params/scan", "{\"threshold\": \"many\"}");
        assertEquals(400, type.statusCode());
        assertSameAsValidator(type, "scan", "threshold: many");

        final HttpResponse<String> range = post(url, "/params/scan", "{\"threshold\": 0}");
        assertEquals(400, range.statusCode());
        assertSameAsValidator(range, "scan", "threshold: 0");
        assertError(range, "'threshold' = 0 is out of range: write a value in [1, 1000000]", "allowed: [1, 1000000]");

        final HttpResponse<String> rule = post(url, "/params/fw", "{\"rules\": [\"permit tcp any any\"]}");
        assertEquals(400, rule.statusCode());
        assertSameAsValidator(rule, "fw", "rules: [permit tcp any any]");

        final HttpResponse<String> fixed = post(url, "/params/scan", "{\"window\": \"5s\"}");
        assertEquals(409, fixed.statusCode());
        assertError(fixed, "parameter 'window' of VNF 'scan' cannot change while the chain runs", "threshold");
        assertEquals("window", json.readTree(fixed.body()).get("parameter").asText());

        final HttpResponse<String> notJson = post(url, "/params/scan", "threshold=5");
        assertEquals(400, notJson.statusCode());
        assertError(notJson, "the body is not a JSON object of new values", "{\"threshold\": value}");
        assertEquals(405, client.send(HttpRequest.newBuilder(URI.create(url + "/params/scan")).GET().build(),
            HttpResponse.BodyHandlers.ofString()).statusCode());

        // nothing refused took effect, and the one good change is in the live status
        assertEquals(List.of(new ParamChanges.Applied("scan", "threshold", 20, 5, 1_000)),
            executor.paramChanges().orElseThrow().applied());
        final JsonNode status = json.readTree(get(url, "/status").body());
        assertEquals(1_000, status.get("param_changes").get(0).get("at_packet").asLong(), status::toPrettyString);

        allowed.set(Long.MAX_VALUE);
        run.join();
        assertNull(failed.get());
        final HttpResponse<String> late = post(url, "/params/scan", "{\"threshold\": 6}");
        assertEquals(409, late.statusCode());
        assertError(late, "the run has ended", "chain's YAML");
    }

    @Test
    @Timeout(300)
    void shouldEqualTheOracleReplayingTheChangesAtTheRecordedPacketsAndNotOneLater() throws Exception
    {
        final long first = 10_000;
        final long second = 25_000;
        final ChainSpec chain = chain(40_000);
        final ChainExecutor executor = ControlServerTest.tpgExecutor(chain);
        final String url = start(executor);
        // after its server: an engine left open keeps its workers polling for the rest of the suite
        toClose.add(executor);
        final AtomicLong allowed = new AtomicLong(first);
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final List<String> engineRecords = new ArrayList<>();
        final Thread run = run(executor, chain, allowed, engineRecords, failed);

        awaitFinished(url, first);
        final HttpResponse<String> denyAll = post(url, "/params/fw", "{\"rules\": [\"deny any any any\"]}");
        assertEquals(200, denyAll.statusCode(), denyAll.body());
        assertEquals(first, json.readTree(denyAll.body()).get("at_packet").asLong());
        allowed.set(second);
        awaitFinished(url, second);
        assertEquals(200, post(url, "/params/fw", "{\"rules\": [], \"default_action\": \"allow\"}").statusCode());
        assertEquals(200, post(url, "/params/scan", "{\"threshold\": 2}").statusCode());
        allowed.set(Long.MAX_VALUE);
        run.join();
        assertNull(failed.get());

        final List<ParamChanges.Applied> script = executor.paramChanges().orElseThrow().applied();
        assertEquals(4, script.size(), script::toString);
        assertEquals(List.of(first, second, second, second), script.stream().map(ParamChanges.Applied::atPacket).toList());

        final List<String> oracle = new ArrayList<>();
        final String oracleState = replay(chain, script, 0, oracle);
        assertEquals(40_000, engineRecords.size());
        assertEquals(oracle, engineRecords, "the run changed over HTTP equals the oracle replaying its change script");
        assertEquals(oracleState, executor.dumpState());

        // negative controls: the oracle without the changes differs; so does the same script a packet late,
        // first at the packet the run changed at
        final List<String> unchanged = new ArrayList<>();
        replay(chain, List.of(), 0, unchanged);
        assertNotEquals(unchanged, engineRecords);
        final List<String> late = new ArrayList<>();
        replay(chain, script, 1, late);
        assertNotEquals(late, engineRecords);
        int differs = 0;
        while (late.get(differs).equals(engineRecords.get(differs)))
        {
            differs++;
        }
        assertEquals(first, differs);
    }

    /** Runs the oracle with {@code script}'s changes, each {@code shift} packets after its position; returns the final state. */
    private static String replay(final ChainSpec chain, final List<ParamChanges.Applied> script, final long shift,
        final List<String> records) throws IOException
    {
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain);
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final ParamChanges changes = oracle.paramChanges().orElseThrow();
            for (int i = 0; i < script.size(); )
            {
                final ParamChanges.Applied step = script.get(i);
                final Map<String, Object> values = new LinkedHashMap<>();
                while (i < script.size() && script.get(i).atPacket() == step.atPacket() && script.get(i).vnf().equals(step.vnf()))
                {
                    values.put(script.get(i).parameter(), script.get(i).newValue());
                    i++;
                }
                changes.schedule(step.atPacket() + shift, step.vnf(), values);
            }
            oracle.run(source, recorder(oracle, records));
            return oracle.dumpState();
        }
    }

    private static PacketListener recorder(final ChainExecutor executor, final List<String> records)
    {
        final StringBuilder line = new StringBuilder();
        return (record, buffer, packet) ->
        {
            line.setLength(0);
            records.add(record.format(line, executor.runtime(), packet).toString());
        };
    }

    private static Thread run(final ChainExecutor executor, final ChainSpec chain, final AtomicLong allowed,
        final List<String> records, final AtomicReference<Throwable> failed)
    {
        final Thread run = new Thread(() ->
        {
            try (PacketSource source = new GatedPacketSource(PacketSources.open(chain.settings().traffic()), allowed::get))
            {
                executor.run(source, recorder(executor, records));
            }
            catch (final Throwable t)
            {
                failed.set(t);
            }
        }, "run");
        run.start();
        return run;
    }

    /** Waits until the engine has finished every packet before the gate: then no batch is in flight. */
    private void awaitFinished(final String url, final long packets) throws IOException, InterruptedException
    {
        long finished;
        do
        {
            finished = json.readTree(get(url, "/status").body()).get("progress").get("packets_finished").asLong();
        }
        while (finished < packets);
        assertEquals(packets, finished);
    }

    /** Asserts the answer says what the chain validator says about the same value written in the chain's YAML. */
    private void assertSameAsValidator(final HttpResponse<String> response, final String vnf, final String yamlParam)
        throws IOException
    {
        final String yaml = "name: t\nvnfs:\n  - name: " + vnf + "\n    type: " + ("fw".equals(vnf) ? "firewall" : "port-scan-detector")
            + "\n    params:\n      " + yamlParam + "\n";
        final List<ChainError> errors = new ChainLoader().validate(yaml, "t.yaml");
        assertEquals(1, errors.size(), errors::toString);
        assertError(response, errors.get(0).message(), errors.get(0).fix());
    }

    private void assertError(final HttpResponse<String> response, final String error, final String fix) throws IOException
    {
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        final JsonNode body = json.readTree(response.body());
        assertTrue(body.get("error").asText().contains(error), response.body());
        assertTrue(body.get("fix").asText().contains(fix), response.body());
    }

    private HttpResponse<String> get(final String url, final String path) throws IOException, InterruptedException
    {
        return client.send(HttpRequest.newBuilder(URI.create(url + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(final String url, final String path, final String body)
        throws IOException, InterruptedException
    {
        return client.send(HttpRequest.newBuilder(URI.create(url + path)).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String start(final ChainExecutor executor)
    {
        final List<String> tables = new ArrayList<>();
        for (int t = 0; t < executor.runtime().catalog().size(); t++)
        {
            tables.add(executor.runtime().catalog().qualifiedName(t));
        }
        final ControlServer server = ControlServer.start(new HttpAddress(HttpAddress.LOOPBACK, 0),
            new RunView("fw-portscan-monitor", Map.of("kind", "tpg"), executor, -1, tables),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        toClose.add(server);
        return server.url();
    }

    private static ChainSpec chain(final long packets) throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled("fw-portscan-monitor");
        final GeneratorConfig traffic = GeneratorConfig.builder().set("packets", Long.toString(packets))
            .set("new_conn_ratio", "0.3").build();
        return bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.generate(traffic)).withExecutorThreads(2));
    }
}
