package io.transnfv.scheduler;

/**
 * Unstructured exploration: an executor takes from a random end of its own deque and, when it
 * is empty, steals starting at a random victim. No order is imposed on ready units beyond
 * their dependencies; the randomness spreads hot chains over executors. Each executor's
 * generator is its own (no shared state).
 */
public final class RandomExploration implements Exploration
{
    @Override
    public int poll(final ReadyDeques deques, final int e)
    {
        final int r = deques.nextRandom(e);
        final int own = (r & 1) == 0 ? deques.takeBottom(e) : Exploration.takeOwnTop(deques, e);
        if (own != ReadyDeques.EMPTY)
        {
            return own;
        }
        return Exploration.stealSweep(deques, e, (r >>> 1) % deques.executors());
    }

    @Override
    public String shortName()
    {
        return "random";
    }

    @Override
    public int id()
    {
        return 2;
    }

    @Override
    public String toString()
    {
        return "unstructured-random";
    }
}
