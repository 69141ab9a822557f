package io.transnfv.scheduler;

/**
 * When an aborted transaction's effects are resolved: the third scheduling dimension.
 * The executor asks the policy two questions that together fix its visibility rule.
 */
public interface AbortHandling
{
    /**
     * @return true if an operation may read another transaction's version only once that
     *         transaction has finished (committed, or aborted and its versions removed): then
     *         no read is ever invalidated and nothing is re-executed. False means speculative
     *         visibility: reads of a later-aborted transaction are redone.
     */
    boolean readsDecidedVersionsOnly();

    /**
     * @return true if an abort is propagated at once (the transaction's remaining operations
     *         are skipped and its dependents released as soon as it finishes); false to
     *         resolve aborts at the end of the batch.
     */
    boolean propagatesAtOnce();
}
