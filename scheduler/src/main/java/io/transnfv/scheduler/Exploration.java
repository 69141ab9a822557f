package io.transnfv.scheduler;

/**
 * In which order executors explore ready units: the first scheduling dimension. Every
 * exploration pushes newly ready units onto the releasing executor's own deque (no shared
 * queue); they differ in which end the owner takes from and whom it steals from. Immutable;
 * called by every executor thread.
 */
public interface Exploration
{
    /**
     * Takes a ready unit for executor {@code e}: its own deque first, then one sweep of
     * stealing over the others.
     *
     * @return a unit, or {@link ReadyDeques#EMPTY} if the sweep found nothing.
     */
    int poll(ReadyDeques deques, int e);

    /** @return the short name used in policy names ({@code bfs}, {@code dfs}, {@code random}). */
    String shortName();

    /** @return a dense id (0, 1, 2) used to index the policy space. */
    int id();

    /**
     * One stealing sweep over every other deque, starting at {@code first}; retries a victim
     * whose top was contended.
     */
    static int stealSweep(final ReadyDeques deques, final int e, final int first)
    {
        final int n = deques.executors();
        for (int i = 0; i < n; i++)
        {
            int victim = first + i;
            if (victim >= n)
            {
                victim -= n;
            }
            if (victim == e)
            {
                continue;
            }
            int unit;
            do
            {
                unit = deques.takeTop(victim);
            }
            while (unit == ReadyDeques.CONTENDED);
            if (unit != ReadyDeques.EMPTY)
            {
                return unit;
            }
        }
        return ReadyDeques.EMPTY;
    }

    /** Takes from the top of the own deque, retrying while thieves contend. */
    static int takeOwnTop(final ReadyDeques deques, final int e)
    {
        int unit;
        do
        {
            unit = deques.takeTop(e);
        }
        while (unit == ReadyDeques.CONTENDED);
        return unit;
    }
}
