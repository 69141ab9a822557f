package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.BatchExecutor;
import io.transnfv.engine.executor.StageExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The judge must be able to say no: a wrong executor is caught, with the evidence. */
class EquivalenceCheckTest
{
    @Test
    void shouldReportFirstDivergingPacketOfAnExecutorThatIgnoresTimestampOrder() throws IOException
    {
        final ChainSpec bundled = new ChainLoader().loadBundled("lb");
        final ChainSpec chain = bundled.withSettings(bundled.settings()
            .withTraffic(TrafficSpec.generate(GeneratorConfig.parse("packets=5000,new_conn_ratio=0.5,servers=8,seed=3"))));

        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain,
            () -> PacketSources.open(chain.settings().traffic()),
            spec -> new BatchedChainExecutor(spec, threads -> StageExecutor.of(new ReverseOrderExecutor()), "reverse order"));

        assertFalse(result.equivalent());
        assertTrue(result.divergingSequence() >= 0);
        assertNotNull(result.oracleRecord());
        assertNotNull(result.candidateRecord());
        assertNotEquals(result.oracleRecord(), result.candidateRecord());
        assertTrue(result.oracleRecord().startsWith(result.divergingSequence() + " "), result.oracleRecord());
        assertNotNull(result.stateDifference());
    }

    @Test
    void shouldAcceptTheOracleAgainstItself() throws IOException
    {
        final ChainSpec chain = new ChainLoader().loadBundled("fw-portscan-monitor");
        final ChainSpec small = chain.withSettings(chain.settings().withTraffic(
            TrafficSpec.generate(GeneratorConfig.parse("packets=3000"))));
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(small,
            () -> PacketSources.open(small.settings().traffic()),
            spec -> new SerialChainExecutor(spec));
        assertTrue(result.equivalent(), String.valueOf(result));
        assertTrue(result.packets() == 3000);
    }

    /** Applies a batch's transactions last first: wrong whenever two of them conflict. */
    private static final class ReverseOrderExecutor implements BatchExecutor
    {
        private final SerialApplier applier = new SerialApplier();

        @Override
        public void execute(final TransactionLog log, final MultiVersionStateTable state)
        {
            for (int t = log.transactionCount() - 1; t >= 0; t--)
            {
                applier.apply(log, t, state);
            }
        }

        @Override
        public void close()
        {
        }
    }
}
