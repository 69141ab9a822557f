package io.transnfv.scheduler;

/**
 * A batch's operations grouped into units, laid out flat: the operations of unit {@code u}
 * occupy positions {@code start(u) .. end} of one array, in serial order. A deque holds
 * positions: the position of a unit's head when it is first offered, or of the operation it
 * stopped at when it is resumed. Filled by a {@link Granularity} on the coordinating thread,
 * read by every executor after the batch is published. Recycled batch after batch.
 *
 * <pre>
 *  position:     0    1    2    3    4    5
 *  operationAt: [o4 | o0 | o7 | o1 | o2 | o9]      unit 0 = {o4, o0, o7}, unit 1 = {o1}, ...
 *  unitEnd:     [ 3 |  3 |  3 |  4 |  6 |  6]
 *  unitStart:   [0, 3, 4]       positionOf[o] = its position
 * </pre>
 */
public final class WorkUnits
{
    private int unitCount;
    private int positions;
    private boolean identity;
    private int[] operationAt = new int[256];
    private int[] positionOf = new int[256];
    private int[] unitEnd = new int[256];
    private int[] unitStart = new int[256];

    /** Forgets the previous batch and sizes the arrays for {@code operations}. */
    public void reset(final int operations)
    {
        if (operationAt.length < operations)
        {
            final int n = Integer.highestOneBit(operations - 1) << 1;
            operationAt = new int[n];
            positionOf = new int[n];
            unitEnd = new int[n];
            unitStart = new int[n];
        }
        unitCount = 0;
        positions = 0;
        identity = false;
    }

    /** Appends operation {@code o} to the unit being filled. */
    public void add(final int o)
    {
        final int p = positions++;
        operationAt[p] = o;
        positionOf[o] = p;
    }

    /** Closes the unit being filled (a unit without operations is dropped). */
    public void closeUnit()
    {
        final int start = unitCount == 0 ? 0 : unitEnd[unitStart[unitCount - 1]];
        final int end = positions;
        if (end == start)
        {
            return;
        }
        for (int p = start; p < end; p++)
        {
            unitEnd[p] = end;
        }
        unitStart[unitCount++] = start;
    }

    /**
     * Lays out one unit per operation, in operation order, without touching an array: position
     * {@code p} is operation {@code p}. Cost: O(1).
     */
    public void singleOperations(final int operations)
    {
        unitCount = operations;
        positions = operations;
        identity = true;
    }

    /** @return true if every operation is a unit of its own and positions are operation ids. */
    public boolean isSingleOperations()
    {
        return identity;
    }

    /** @return the number of units. */
    public int unitCount()
    {
        return unitCount;
    }

    /** @return the number of positions (= operations laid out). */
    public int positionCount()
    {
        return positions;
    }

    /** @return the position of unit {@code u}'s first operation. */
    public int unitStart(final int u)
    {
        return identity ? u : unitStart[u];
    }

    /** @return the operation at {@code position}. */
    public int operationAt(final int position)
    {
        return identity ? position : operationAt[position];
    }

    /** @return one past the last position of the unit {@code position} belongs to. */
    public int unitEnd(final int position)
    {
        return identity ? position + 1 : unitEnd[position];
    }

    /** @return operation {@code o}'s position. */
    public int positionOf(final int o)
    {
        return identity ? o : positionOf[o];
    }
}
