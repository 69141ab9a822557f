package io.transnfv.engine.control;

import io.transnfv.vnf.api.StateReader;

/**
 * Every state entry one flow touches across the chain ({@link FlowProbe#probe}), read together
 * where no batch is in flight ({@link CommandQueue}): one consistent picture of the flow, the
 * NAT's mapping, the server the load balancer chose and a detector's progress all after the
 * same packet.
 */
public final class FlowQuery extends StateCommand
{
    private final FlowProbe.Access[] accesses;
    private final long[] values;

    /** @param accesses the entries to read, as {@link FlowProbe#probe} found them. */
    public FlowQuery(final FlowProbe.Access[] accesses)
    {
        this.accesses = accesses.clone();
        this.values = new long[accesses.length];
    }

    @Override
    protected void read(final StateReader committed)
    {
        for (int i = 0; i < accesses.length; i++)
        {
            values[i] = committed.get(accesses[i].table(), accesses[i].key());
        }
    }

    /** @return the number of entries asked. */
    public int size()
    {
        return accesses.length;
    }

    /** @return entry {@code i} as asked. */
    public FlowProbe.Access access(final int i)
    {
        return accesses[i];
    }

    /** @return entry {@code i}'s committed value (its table's initial value when absent); once answered. */
    public long value(final int i)
    {
        return values[i];
    }
}
