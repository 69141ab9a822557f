package io.transnfv.vnf.api;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * A virtual network function: stateless pre-processing that declares one transaction per
 * packet, and post-processing that acts on its outcome. Shared state lives only in the
 * tables declared in {@link #setup(VnfSetup)}; instance fields are configuration, set up
 * once and then read-only, so the methods may run on several threads at once. The one exception
 * is a parameter declared {@link ParamSpec#whileRunning() live}: {@link #prepareChange} replaces
 * it, and the runtime applies that only between two batches.
 *
 * <p>Time is packet time ({@link TransactionBuilder#timestampNs()}), never the wall clock,
 * so every executor reaches the same result.
 */
public interface Vnf
{
    /** Declares tables, outputs, drop reasons, alert types and tags; called once, first. */
    void setup(VnfSetup setup);

    /**
     * The stateless part: parse what is needed and declare this packet's state accesses on
     * {@code txn} (possibly none). Must not modify the packet.
     */
    void preProcess(PacketFlyweight packet, TransactionBuilder txn);

    /**
     * Acts on the transaction's outcome: {@link PacketActions#forward(int)} to a named
     * output (the default is output 0, {@value VnfSetup#DEFAULT_OUTPUT}), drop, raise
     * alerts, tag, or rewrite headers through {@code packet}'s setters.
     */
    void postProcess(PacketFlyweight packet, TransactionView result, PacketActions actions);

    /**
     * Housekeeping at packet time {@code nowNs}: remove idle per-flow entries and undo their
     * cross-flow effects. Runs alone, between two transactions, at ticks the runtime places
     * deterministically in packet time, so every executor sees the same state here.
     */
    default void expire(long nowNs, StateMaintenance state)
    {
    }

    /**
     * Evicts: removes every entry of {@code table} whose activity time (its
     * {@link TableSpec#activity() clock}) is at most {@code cutoff}, with whatever its removal must
     * undo (a server's count of connections, a port), as housekeeping does for idle entries. The
     * runtime calls it when {@code table} is over the capacity its chain gives it with
     * {@code when_full: evict}, with the cutoff that removes its least recently active entries.
     * Runs alone, between two transactions, like {@link #expire}.
     *
     * @return false if this VNF does not evict from {@code table} (the default), and then it
     *         removes nothing.
     */
    default boolean evict(int table, long cutoff, StateMaintenance state)
    {
        return false;
    }

    /**
     * @return true if {@link #evict} removes entries of {@code table} (a table with an activity
     *         clock that this VNF knows how to give up): the chain's validator refuses
     *         {@code when_full: evict} on any other table.
     */
    default boolean evicts(int table)
    {
        return false;
    }

    /**
     * Prepares a change of the parameters its type declares {@link ParamSpec#whileRunning() live}:
     * checks and parses {@code next} here, off the data path, on whichever thread asks, and
     * returns what sets the new values. The runtime calls {@link LiveChange#apply()} later, on one
     * of its threads between two batches (no transaction in flight, no packet in pre- or
     * post-processing), so no packet sees half of a change; the runtime's hand-over of the next
     * batch to its workers publishes the new values to them.
     *
     * @param next every parameter of the instance, the changed ones with their new values; only
     *             live parameters differ from the configuration it runs with.
     * @return what applies the change; called at most once.
     * @throws VnfConfigException for a value that passes the type check but makes no sense.
     * @throws UnsupportedOperationException if the type declares no live parameter (the default).
     */
    default LiveChange prepareChange(VnfConfig next)
    {
        throw new UnsupportedOperationException("this VNF type declares no parameter that may change while it runs");
    }
}
