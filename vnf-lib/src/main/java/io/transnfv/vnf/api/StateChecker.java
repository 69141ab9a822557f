package io.transnfv.vnf.api;

/**
 * A state checker (CoGS): an invariant over a VNF's committed state, such as "no public port
 * is mapped twice" or "each server's load counts the connections that name it". A VNF declares
 * its checkers at setup ({@link VnfSetup#checker}), each under a short stable name; a chain picks
 * which of them run and how often ({@code settings: checkers:} in its YAML).
 *
 * <p>The runtime calls {@link #check} alone, at a punctuation: between two batches, where no
 * transaction is in flight, at the same packet positions on every executor, and on the state at
 * the end of the run. A check reads only ({@link StateReader}); it must not keep what it reads.
 * A check reads whole tables: keep it linear in their size.
 */
@FunctionalInterface
public interface StateChecker
{
    /**
     * Checks the invariant on {@code state}, reporting every entry that breaks it.
     *
     * @param state      the VNF's committed tables, read-only.
     * @param violations where to report each violation.
     */
    void check(StateReader state, Violations violations);

    /**
     * Where a check reports what breaks its invariant. The runtime counts the violations, keeps
     * the first one's key and message, and raises them as alerts about their keys.
     */
    @FunctionalInterface
    interface Violations
    {
        /**
         * @param key     the key of the entry that breaks the invariant (the subject of the alert);
         *                for an invariant over a whole table, the table's key most to blame, or 0.
         * @param message what breaks it, naming the keys and values involved.
         */
        void violated(long key, String message);
    }
}
