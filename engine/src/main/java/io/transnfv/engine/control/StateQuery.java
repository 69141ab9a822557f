package io.transnfv.engine.control;

import io.transnfv.vnf.api.StateReader;

/**
 * One committed-state lookup asked from outside the engine's threads ({@link CommandQueue}):
 * the value of a key in a table, read where no batch is in flight.
 */
public final class StateQuery extends StateCommand
{
    private final int table;
    private final long key;
    private long value;

    /**
     * @param table the table's index in the chain's catalogue.
     * @param key   the key.
     */
    public StateQuery(final int table, final long key)
    {
        this.table = table;
        this.key = key;
    }

    @Override
    protected void read(final StateReader committed)
    {
        value = committed.get(table, key);
    }

    /** @return the committed value (the table's initial value when the key has no entry). */
    public long value()
    {
        return value;
    }
}
