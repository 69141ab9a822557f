package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.VnfRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole bundled default chain (NAT, load balancer, trojan detector), run by the engine with
 * the chain's own settings on the chain's own traffic, keeps a flat drop rate over 100 M
 * packets: no window of a million packets drops more than 0.1 % of its packets, at any stage,
 * for any reason. {@link DefaultChainNatPoolTest} checks the NAT's pool alone in the default
 * suite; this is the same promise for the chain as a user runs it, past every idle timeout and
 * expiry sweep of every VNF, so it is behind {@code -Pstress} (a few minutes on two cores).
 */
@Tag("stress")
class DefaultChainLongRunTest
{
    private static final long PACKETS = 100_000_000L;
    private static final long WINDOW = 1_000_000L;
    private static final double MAX_DROP_SHARE = 0.001;

    @Test
    void shouldKeepTheWholeDefaultChainsDropRateFlatOverOneHundredMillionPackets() throws IOException
    {
        final ChainSpec bundled = new ChainLoader(VnfRegistry.load()).loadBundled(ChainLoader.DEFAULT_CHAIN);
        final GeneratorConfig traffic = bundled.settings().traffic().generator().toBuilder()
            .set("packets", Long.toString(PACKETS)).build();
        final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(TrafficSpec.generate(traffic)));

        final long[] dropsPerWindow = new long[(int)(PACKETS / WINDOW)];
        final PacketListener countDrops = (record, buffer, packet) ->
        {
            if (record.dropped())
            {
                dropsPerWindow[(int)(record.sequence() / WINDOW)]++;
            }
        };
        final RunStats stats;
        try (BatchedChainExecutor engine = new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
            PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            stats = engine.run(source, countDrops);
        }

        assertEquals(PACKETS, stats.packetsFinished(), "every generated packet went through the chain");
        for (int w = 0; w < dropsPerWindow.length; w++)
        {
            final double share = (double)dropsPerWindow[w] / WINDOW;
            assertTrue(share <= MAX_DROP_SHARE, "window " + w + " (packets " + w * WINDOW + " to " + (w + 1) * WINDOW
                + ") dropped " + dropsPerWindow[w] + " packets, " + share * 100 + " %; all windows: "
                + Arrays.toString(dropsPerWindow));
        }
    }
}
