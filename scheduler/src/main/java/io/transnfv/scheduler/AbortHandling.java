package io.transnfv.scheduler;

/**
 * When an aborted transaction's effects are resolved: the third scheduling dimension. It is
 * the one flag {@link #readsDecidedVersionsOnly()}, named: the executor reads it once per
 * batch, and the behaviour it selects lives in the engine (the executor's release rule, and
 * the end-of-batch resolver that re-executes the readers of aborted versions under
 * {@link LazyAbort}). Immutable.
 */
public interface AbortHandling
{
    /**
     * @return true if an operation may read another transaction's version only once that
     *         transaction has finished (committed, or aborted and its versions removed): then
     *         no read is ever invalidated and nothing is re-executed. False means speculative
     *         visibility: a version is readable as soon as its operation ran, and reads of a
     *         later-aborted transaction are redone at the end of the batch.
     */
    boolean readsDecidedVersionsOnly();

    /** @return the short name used in policy names ({@code eager}, {@code lazy}). */
    String shortName();

    /** @return a dense id (0, 1) used to index the policy space. */
    int id();
}
