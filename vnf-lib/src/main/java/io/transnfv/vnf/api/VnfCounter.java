package io.transnfv.vnf.api;

import java.util.concurrent.atomic.LongAdder;

/**
 * A monotonically increasing counter a VNF reports in the run summary. Safe to increment
 * from several post-processing threads; counters are reports, not state, and play no part
 * in chain output equivalence.
 */
public final class VnfCounter
{
    private final String name;
    private final LongAdder value = new LongAdder();

    /** @param name the counter's full name, {@code <instance>.<counter>}. */
    public VnfCounter(final String name)
    {
        this.name = name;
    }

    /** @return the counter's full name. */
    public String name()
    {
        return name;
    }

    /** Adds one. */
    public void increment()
    {
        value.increment();
    }

    /** Adds {@code delta}. */
    public void add(final long delta)
    {
        value.add(delta);
    }

    /** @return the current total. */
    public long get()
    {
        return value.sum();
    }
}
