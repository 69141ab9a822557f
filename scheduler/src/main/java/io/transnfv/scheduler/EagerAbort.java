package io.transnfv.scheduler;

/**
 * Eager abort: a transaction's versions become visible only when it has finished, so an abort
 * is handled the moment it happens: the remaining operations are skipped, the versions
 * removed, and only then are dependents released; since they never saw the versions, nothing
 * is re-executed. The cost: a dependent waits for the whole predecessor transaction, not only
 * for the operation that wrote the version it reads.
 */
public final class EagerAbort implements AbortHandling
{
    @Override
    public boolean readsDecidedVersionsOnly()
    {
        return true;
    }

    @Override
    public String shortName()
    {
        return "eager";
    }

    @Override
    public int id()
    {
        return 0;
    }

    @Override
    public String toString()
    {
        return "eager-abort";
    }
}
