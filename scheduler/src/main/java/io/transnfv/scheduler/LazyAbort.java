package io.transnfv.scheduler;

/**
 * Lazy abort: a version is visible as soon as the operation that writes it has run
 * (speculative visibility), so a dependent waits only for that operation, not for its whole
 * transaction. An abort removes the aborting operation's and the later operations' versions
 * at once, but versions the transaction wrote before aborting may have been read: at the end
 * of the batch they are removed and exactly the transactions that read them, and
 * transitively those that read theirs, are re-executed in serial order. Cheap when aborts
 * are rare; a cascade when they are common.
 */
public final class LazyAbort implements AbortHandling
{
    @Override
    public boolean readsDecidedVersionsOnly()
    {
        return false;
    }

    @Override
    public String shortName()
    {
        return "lazy";
    }

    @Override
    public int id()
    {
        return 1;
    }

    @Override
    public String toString()
    {
        return "lazy-abort";
    }
}
