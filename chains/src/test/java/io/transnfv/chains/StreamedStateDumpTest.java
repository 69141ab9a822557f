package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.VnfRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run --state} and {@code verify} stream the final state: the executors hand it to the
 * writer entry by entry, so no write is as large as the dump and the dump never exists as
 * one String; the streamed text is the dump.
 */
class StreamedStateDumpTest
{
    /** Records what it is given, and the largest single write. */
    private static final class LargestWrite extends Writer
    {
        private final StringBuilder text = new StringBuilder();
        private int largest;

        @Override
        public void write(final char[] chars, final int offset, final int length)
        {
            largest = Math.max(largest, length);
            text.append(chars, offset, length);
        }

        @Override
        public void write(final String s, final int offset, final int length)
        {
            largest = Math.max(largest, length);
            text.append(s, offset, offset + length);
        }

        @Override
        public void flush()
        {
        }

        @Override
        public void close()
        {
        }
    }

    @Test
    void shouldStreamTheFinalStateEntryByEntryFromEveryExecutor() throws IOException
    {
        final ChainSpec base = new ChainLoader(VnfRegistry.load()).loadBundled(ChainLoader.DEFAULT_CHAIN);
        final ChainSpec chain = base.withSettings(base.settings().withTraffic(TrafficSpec.generate(
            base.settings().traffic().generator().toBuilder().set("packets", "20000").build())));
        for (final ChainExecutor executor : List.of(new SerialChainExecutor(chain),
            new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg")))
        {
            try (executor; PacketSource source = PacketSources.open(chain.settings().traffic()))
            {
                executor.run(source, (record, buffer, packet) ->
                {
                });
                final LargestWrite out = new LargestWrite();
                executor.writeState(out);
                final String whole = executor.dumpState();
                assertEquals(whole, out.text.toString(), executor.describe());
                assertTrue(whole.length() > 10_000, "a state of many entries: " + whole.length() + " chars");
                assertTrue(out.largest < 100, executor.describe() + ": largest write " + out.largest
                    + " chars of " + whole.length() + ": the dump was built whole, not streamed");
            }
        }
    }
}
