package io.transnfv.chains;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.builtin.tenant.TenantClassifierFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each tenant's latency histogram holds exactly its own sampled packets: those whose record passed
 * its limiter, counted independently here from the records the run hands out, on the oracle and
 * on the engine at one and two workers (whose workers' and egress's shares are merged).
 */
class TenantLatencyTest
{
    private static final int PACKETS = 20_000;

    @Test
    void shouldRecordEverySampledPacketsLatencyAsItsTenants() throws IOException
    {
        check("serial", SerialChainExecutor::new, 1);
        for (final int threads : new int[] {1, 2})
        {
            check("engine, " + threads + " threads", s -> new BatchedChainExecutor(s, n -> TpgBatchExecutor.create(n, "adaptive"), "adaptive"),
                threads);
        }
    }

    @Test
    void shouldKeepNoTenantHistogramsInAChainWithoutTenants() throws IOException
    {
        final ChainSpec spec = new ChainLoader().loadBundled("lb");
        final ChainSpec small = spec.withSettings(spec.settings().withTraffic(TrafficSpec.generate(
            spec.settings().traffic().generator().toBuilder().packets(1_000).build())));
        try (SerialChainExecutor oracle = new SerialChainExecutor(small); PacketSource source = PacketSources.open(small.settings().traffic()))
        {
            final RunStats stats = oracle.run(source, null);
            assertTrue(stats.latencyNs().getTotalCount() > 0);
            assertNull(stats.tenantLatencyNs(0));
        }
    }

    private static void check(final String what, final Function<ChainSpec, ChainExecutor> executor, final int threads) throws IOException
    {
        final ChainSpec spec = bundled(threads);
        final TenantClassifierFactory classifier = (TenantClassifierFactory)spec.vnfs().get(0).factory();
        final int tenants = classifier.tenants().size();
        final long[] sampled = new long[tenants];
        final long[] noTenant = new long[1];
        try (ChainExecutor run = executor.apply(spec); PacketSource source = PacketSources.open(spec.settings().traffic()))
        {
            final RunStats stats = run.run(source, (record, buffer, packet) ->
            {
                if (!EngineConfiguration.latencySampled(record.sequence()))
                {
                    return;
                }
                for (int t = 0; t < tenants; t++)
                {
                    for (int i = 0; i < record.pathLength(); i++)
                    {
                        if (run.runtime().instance(record.path(i)).name().equals(classifier.members().get(t).get(0)))
                        {
                            sampled[t]++;
                        }
                    }
                }
                if (record.pathLength() < 2)
                {
                    noTenant[0]++;
                }
            });
            long total = noTenant[0];
            for (int t = 0; t < tenants; t++)
            {
                final String tenant = classifier.tenants().get(t);
                assertNotNull(stats.tenantLatencyNs(t), what + ": " + tenant);
                assertTrue(sampled[t] > 50, what + ": " + tenant + " has sampled packets: " + sampled[t]);
                assertEquals(sampled[t], stats.tenantLatencyNs(t).getTotalCount(), what + ": " + tenant + "'s sampled packets");
                total += sampled[t];
            }
            assertTrue(noTenant[0] > 0, what + ": some sampled packets belong to no tenant");
            assertEquals(total, stats.latencyNs().getTotalCount(), what + ": every sampled packet is the run's");
        }
    }

    private static ChainSpec bundled(final int threads)
    {
        final ChainSpec loaded = new ChainLoader().loadBundled("tenants");
        final GeneratorConfig traffic = loaded.settings().traffic().generator().toBuilder().packets(PACKETS).build();
        return loaded.withSettings(loaded.settings().withTraffic(TrafficSpec.generate(traffic)).withPunctuation(64, 1_000_000)
            .withExecutorThreads(threads));
    }
}
