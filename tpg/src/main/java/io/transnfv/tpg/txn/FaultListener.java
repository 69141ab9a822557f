package io.transnfv.tpg.txn;

/**
 * Told when a {@link StateFunction} or {@link ChooseFunction} throws. The executor has already
 * aborted the transaction with {@link TransactionView#FAULT} and undoes its writes; the
 * listener only records what happened. Called on the executing thread, rarely: it may
 * allocate.
 */
@FunctionalInterface
public interface FaultListener
{
    /**
     * @param log         the log of the transaction.
     * @param transaction the transaction whose function threw.
     * @param fault       what it threw.
     */
    void onFunctionFault(TransactionLog log, int transaction, Throwable fault);
}
