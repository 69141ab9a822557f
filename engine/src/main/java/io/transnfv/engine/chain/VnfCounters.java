package io.transnfv.engine.chain;

import io.transnfv.vnf.api.VnfCounter;

import java.util.ArrayList;
import java.util.List;

/**
 * The VNFs' own counters ({@code nat.outbound}, ...) of a runtime as one array, in chain order
 * with the fragment tracker's last: checkpoints keep them after the run's counters
 * ({@link ChainRuntime#checkpointCounters}), so a resumed run goes on counting from the cut, and
 * a scaled-out run's summary adds up every subtask's.
 */
public final class VnfCounters
{
    private VnfCounters()
    {
    }

    /** @return every VNF counter's value (read between batches for an exact figure). */
    public static long[] values(final ChainRuntime runtime)
    {
        final List<VnfCounter> counters = all(runtime);
        final long[] values = new long[counters.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = counters.get(i).get();
        }
        return values;
    }

    /**
     * Adds {@code values} (from {@link #values} of the same chain) to {@code runtime}'s counters.
     *
     * @throws IllegalArgumentException if they belong to another chain.
     */
    public static void add(final ChainRuntime runtime, final long[] values)
    {
        final List<VnfCounter> counters = all(runtime);
        if (values.length != counters.size())
        {
            throw new IllegalArgumentException(values.length + " VNF counters given, the chain has " + counters.size());
        }
        for (int i = 0; i < values.length; i++)
        {
            counters.get(i).add(values[i]);
        }
    }

    /** @return how many VNF counters {@code runtime} has. */
    public static int count(final ChainRuntime runtime)
    {
        return all(runtime).size();
    }

    private static List<VnfCounter> all(final ChainRuntime runtime)
    {
        final List<VnfCounter> counters = new ArrayList<>();
        for (int v = 0; v < runtime.size(); v++)
        {
            counters.addAll(runtime.instance(v).counters().values());
        }
        counters.addAll(runtime.fragments().counters().values());
        return counters;
    }
}
