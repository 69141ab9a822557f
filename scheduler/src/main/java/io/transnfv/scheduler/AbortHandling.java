package io.transnfv.scheduler;

/**
 * When an aborted transaction's effects are resolved: the third scheduling dimension. It
 * fixes the executor's visibility rule. Immutable.
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

    /**
     * @return true if an abort is propagated at once (dependents are released only after the
     *         aborted transaction's versions are gone); false to resolve aborts at the end of
     *         the batch.
     */
    boolean propagatesAtOnce();

    /** @return the short name used in policy names ({@code eager}, {@code lazy}). */
    String shortName();

    /** @return a dense id (0, 1) used to index the policy space. */
    int id();
}
