package io.transnfv.cli.http;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.builtin.tenant.TenantClassifierFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A chain of tenants' /metrics gives each tenant's packets, drops, alerts, entries and latency, summed as the run report sums them. */
class TenantMetricsTest
{
    private static final int PACKETS = 20_000;

    @Test
    @Timeout(120)
    void shouldLabelEachTenantsFiguresByTenantOnEveryExecutor() throws Exception
    {
        final ChainSpec bundled = new ChainLoader().loadBundled("tenants");
        final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.generate(
            bundled.settings().traffic().generator().toBuilder().packets(PACKETS).build())));
        final TenantClassifierFactory classifier = (TenantClassifierFactory)chain.vnfs().get(0).factory();
        for (final ChainExecutor executor : List.of(ControlServerTest.tpgExecutor(chain), new SerialChainExecutor(chain)))
        {
            final List<String> tables = new ArrayList<>();
            for (int t = 0; t < executor.runtime().catalog().size(); t++)
            {
                tables.add(executor.runtime().catalog().qualifiedName(t));
            }
            try (executor;
                 ControlServer server = ControlServer.start(new HttpAddress(HttpAddress.LOOPBACK, 0),
                     new RunView("tenants", Map.of(), executor, PACKETS, tables), new PrintStream(OutputStream.nullOutputStream()));
                 PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                final RunStats stats = executor.run(source, null);
                final String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
                final Map<String, Double> samples = new HashMap<>();
                body.lines().filter(l -> l.startsWith("transnfv_tenant_")).forEach(l ->
                    samples.put(l.substring(0, l.lastIndexOf(' ')), Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))));
                long everyTenant = 0;
                for (int t = 0; t < classifier.tenants().size(); t++)
                {
                    final String label = "{tenant=\"" + classifier.tenants().get(t) + "\"}";
                    final List<String> members = classifier.members().get(t);
                    long in = 0;
                    long dropped = 0;
                    long alerts = 0;
                    for (int i = 0; i < executor.runtime().size(); i++)
                    {
                        final var vnf = executor.runtime().instance(i);
                        if (vnf.name().equals(members.get(0)))
                        {
                            in = stats.visits(i);
                        }
                        if (members.contains(vnf.name()))
                        {
                            for (int r = 1; r < vnf.dropReasons().size(); r++)
                            {
                                dropped += stats.drops(i, r);
                            }
                            for (int a = 0; a < vnf.alertTypes().size(); a++)
                            {
                                alerts += stats.alerts(i, a);
                            }
                        }
                    }
                    final String what = executor.describe() + ", " + label + ":\n" + body;
                    assertTrue(in > 0, what);
                    assertEquals(in, samples.get("transnfv_tenant_packets_total" + label), what);
                    assertEquals(dropped, samples.get("transnfv_tenant_packets_dropped_total" + label), what);
                    assertEquals(in - dropped, samples.get("transnfv_tenant_packets_forwarded_total" + label), what);
                    assertEquals(alerts, samples.get("transnfv_tenant_alerts_total" + label), what);
                    assertTrue(samples.get("transnfv_tenant_state_entries" + label) > 0, what);
                    final long timed = stats.tenantLatencyNs(t).getTotalCount();
                    assertTrue(timed > 0, what);
                    assertEquals(timed, samples.get("transnfv_tenant_packet_latency_seconds_count" + label), what);
                    assertEquals(timed, samples.get("transnfv_tenant_packet_latency_seconds_bucket{tenant=\"" + classifier.tenants().get(t)
                        + "\",le=\"+Inf\"}"), what);
                    everyTenant += in;
                }
                assertTrue(everyTenant < PACKETS, "some packets belong to no tenant");
                assertTrue(samples.keySet().stream().noneMatch(k -> k.contains("tenant=\"ingress\"")), "the classifier is no tenant");
            }
        }
    }
}
