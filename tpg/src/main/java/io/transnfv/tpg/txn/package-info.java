/**
 * The transaction and operation model: what a VNF's pre-processing declares for one packet
 * and what every executor (the serial oracle and the parallel engine) must give back.
 *
 * <pre>
 *  preProcess ──► TransactionBuilder ──► TransactionLog (flat arrays, one batch)
 *                                              │
 *                       SerialApplier (oracle) │  TPG executors (engine)
 *                                              ▼
 *  postProcess ◄── TransactionView (results: before/after per operation, abort reason)
 * </pre>
 *
 * <p>A transaction is an ordered list of operations on (table, key) pairs of {@code long}
 * values. Its meaning is defined by {@link io.transnfv.tpg.txn.SerialApplier}: operations
 * run in statement order, each sees the state left by every earlier transaction (by
 * timestamp) and by the earlier operations of its own transaction, and the transaction
 * commits or aborts as a whole. A {@link io.transnfv.tpg.txn.TransactionLog} is written by
 * one thread at a time; nothing here knows about packets.
 */
package io.transnfv.tpg.txn;
