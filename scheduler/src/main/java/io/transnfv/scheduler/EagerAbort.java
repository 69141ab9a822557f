package io.transnfv.scheduler;

/**
 * Eager abort: a transaction's abort is handled the moment a function calls it. Its
 * remaining operations are skipped, its versions are removed when it finishes, and only
 * then are its dependents released; since dependents never saw its versions, nothing is
 * re-executed. The cost: a dependent waits for the whole predecessor transaction, not only
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
    public boolean propagatesAtOnce()
    {
        return true;
    }

    @Override
    public String toString()
    {
        return "eager-abort";
    }
}
