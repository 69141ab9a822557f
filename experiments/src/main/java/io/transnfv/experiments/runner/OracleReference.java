package io.transnfv.experiments.runner;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The serial oracle's output for one chain and one capture — a 64-bit hash of every packet's
 * record and the final state dump — against which any executor's run is scored by counting
 * divergences rather than stopping at the first (as {@code EquivalenceCheck} does). Built
 * and used by one thread.
 */
public final class OracleReference
{
    private final long[] recordHashes;
    private final String[] stateLines;

    private OracleReference(final long[] recordHashes, final String[] stateLines)
    {
        this.recordHashes = recordHashes;
        this.stateLines = stateLines;
    }

    /** How far an executor's run is from the oracle's. */
    public record Divergences(long records, long stateEntries)
    {
        /** @return true if nothing differs. */
        public boolean none()
        {
            return records == 0 && stateEntries == 0;
        }
    }

    /** @return the oracle's output for {@code chain} over {@code capture}. */
    public static OracleReference of(final ChainSpec chain, final TrafficCapture capture) throws IOException
    {
        final long[] hashes = new long[capture.packets()];
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = capture.replay())
        {
            oracle.run(source, hasher(oracle, hashes, null));
            return new OracleReference(hashes, lines(oracle.dumpState()));
        }
    }

    /**
     * Runs {@code executor} over {@code capture} and counts packets whose record differs from
     * the oracle's (or that are missing), and state entries present in one final state and not
     * the other or with another value.
     */
    public Divergences score(final ChainExecutor executor, final TrafficCapture capture) throws IOException
    {
        final long[] hashes = new long[recordHashes.length];
        final boolean[] seen = new boolean[recordHashes.length];
        try (PacketSource source = capture.replay())
        {
            executor.run(source, hasher(executor, hashes, seen));
        }
        long records = 0;
        for (int i = 0; i < hashes.length; i++)
        {
            if (!seen[i] || hashes[i] != recordHashes[i])
            {
                records++;
            }
        }
        return new Divergences(records, differingLines(stateLines, lines(executor.dumpState())));
    }

    private static PacketListener hasher(final ChainExecutor executor, final long[] hashes, final boolean[] seen)
    {
        final StringBuilder line = new StringBuilder(256);
        return (record, buffer, packet) ->
        {
            line.setLength(0);
            record.format(line, executor.runtime(), packet);
            final int i = (int)record.sequence();
            if (i >= 0 && i < hashes.length)
            {
                hashes[i] = hash(line);
                if (seen != null)
                {
                    seen[i] = true;
                }
            }
        };
    }

    private static long hash(final CharSequence s)
    {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++)
        {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    private static String[] lines(final String dump)
    {
        return dump.isEmpty() ? new String[0] : dump.split("\n");
    }

    /** @return entries (table and key) present in only one dump or with different values. */
    static long differingLines(final String[] oracle, final String[] candidate)
    {
        final Map<String, String> expected = new HashMap<>(oracle.length * 2);
        for (final String line : oracle)
        {
            final int space = line.lastIndexOf(' ');
            expected.put(line.substring(0, space), line.substring(space + 1));
        }
        long differing = 0;
        long matched = 0;
        for (final String line : candidate)
        {
            final int space = line.lastIndexOf(' ');
            final String value = expected.get(line.substring(0, space));
            if (value == null)
            {
                differing++;
            }
            else
            {
                matched++;
                if (!value.equals(line.substring(space + 1)))
                {
                    differing++;
                }
            }
        }
        return differing + (expected.size() - matched);
    }
}
