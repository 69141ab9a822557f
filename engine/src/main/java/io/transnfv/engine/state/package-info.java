/**
 * The multi-version state table: data path step 6. Committed values live in one primitive
 * open-addressing map per table; a batch adds versions, one per writing access, addressed by
 * the slot the task precedence graph gave that access in its key's serial order.
 *
 * <p>Threads: the coordinating thread binds a batch's keys and slots and collapses them at
 * the end; executor threads create, read and remove versions in between, ordered by the
 * graph's dependencies (each version slot has exactly one writer). Committed state is read
 * and written directly only between batches (housekeeping, dumps).
 */
package io.transnfv.engine.state;
