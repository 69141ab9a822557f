package io.transnfv.vnf.api;

/**
 * How a table's value says when its entry was last active, for expiry that costs what expires
 * ({@link StateMaintenance#forEachDue}). A pure function of the value, any thread.
 *
 * <p>Contract: while a key stays present, its activity time never decreases (the built-in VNFs
 * write packet time, which only grows). The stores index each entry once, when it is inserted,
 * and re-index it only when its indexed time has passed; an entry whose time went backwards
 * could be found a tick late.
 */
@FunctionalInterface
public interface ActivityClock
{
    /**
     * @param value a present entry's value (never the table's initial value).
     * @return its activity time, in the units the table's VNF passes as a cutoff.
     */
    long activity(long value);
}
