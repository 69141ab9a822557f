package io.transnfv.vnf.api;

/**
 * What a VNF declares at setup. Names are resolved to small integers here, once, so that
 * nothing per packet looks up a string. Each method returns the same id for the same name.
 */
public interface VnfSetup
{
    /** Name of output 0, which every VNF has and forwards to by default. */
    String DEFAULT_OUTPUT = "out";

    /** @return the VNF instance's name in the chain (e.g. {@code nat}). */
    String instanceName();

    /** @return the id of a new state table, for use in transactions. */
    int table(TableSpec spec);

    /**
     * Declares a table role the chain may bind to one of its shared tables (YAML
     * {@code shared_tables:}, and {@code shared: {<role>: <table>}} on the instance), so that VNFs of
     * one chain see one table: e.g. a detector writes the hosts it flags, a firewall reads them.
     * The role says what the VNF needs of the table (its {@link TableSpec#keyKind() key kind},
     * {@link TableSpec#initialValue() initial value}, {@link TableSpec#type() type}), and the chain's
     * validator refuses a binding whose table does not match. A shared table has no owner: it does
     * not expire by time and no VNF evicts from it, so the role's activity clock is ignored, and
     * its accesses are {@code serializable}.
     *
     * @param role the role, named as the chain's {@code shared:} names it (e.g. {@code blocklist}).
     * @return the shared table's id, for use in transactions like any table's; -1 if the chain binds
     *         no table to the role, and the VNF then does without it.
     */
    default int sharedTable(final TableSpec role)
    {
        return -1;
    }

    /**
     * The chain's consistency hint for a table declared by {@link #table}: true if the chain sets
     * {@code consistency: commutative} on it, and the VNF must then declare every transactional
     * access to it as an ADD ({@code TransactionBuilder.add}: a delta that never reads the
     * table); false for {@code serializable}, the default. Only a table declared
     * {@link TableSpec#commutable()} can be commutative.
     *
     * @param table an id returned by {@link #table}.
     */
    default boolean commutative(final int table)
    {
        return false;
    }

    /**
     * The chain's consistency hint for a table declared by {@link #table}: true if the chain sets
     * {@code consistency: fire-and-forget} on it, and the VNF must then declare every
     * transactional access to it as a DEFER ({@code TransactionBuilder.defer}: an update whose
     * result nothing reads); false otherwise. Only a table declared
     * {@link TableSpec#forgettable()} can be fire-and-forget.
     *
     * @param table an id returned by {@link #table}.
     */
    default boolean fireAndForget(final int table)
    {
        return false;
    }

    /**
     * The chain's consistency hint for a table declared by {@link #table}: true if the chain sets
     * {@code consistency: {stale-reads: <bound>}} on it, and the VNF must then declare every
     * transactional access to it as a STALE_READ, a STALE_CHOOSE or an ADD
     * ({@code TransactionBuilder.staleRead}, {@code staleChoose}, {@code add}); false otherwise.
     * Only a table declared {@link TableSpec#staleReadable()} can have stale reads.
     *
     * @param table an id returned by {@link #table}.
     */
    default boolean staleReads(final int table)
    {
        return false;
    }

    /** @return the id of a named output; output 0 is {@value #DEFAULT_OUTPUT}. */
    int output(String name);

    /** @return the id (positive) of a drop reason such as {@code pool-exhausted}. */
    int dropReason(String name);

    /** @return the id of an alert type such as {@code trojan}. */
    int alertType(String name);

    /** @return the id of a per-packet tag such as {@code server}. */
    int tag(String name);

    /** @return a counter reported in the run summary under {@code <instance>.<name>}. */
    VnfCounter counter(String name);

    /**
     * Sets the period of {@link Vnf#expire} calls in packet time (the smallest period asked
     * by any VNF of the chain wins); 0, the default, means never.
     */
    void expiryIntervalNs(long intervalNs);

    /**
     * Declares a state checker: an invariant over this VNF's committed state, checked at
     * punctuations and at the end of a run ({@link StateChecker}). Chains name it
     * {@code <instance>.<name>} in {@code settings: checkers:}.
     *
     * @param name        a short stable name, lower-case words joined by {@code -} (e.g.
     *                    {@code port-owned-by-its-mapping}), unique in the VNF.
     * @param description what must hold, in one sentence, for {@code transnfv types} and the docs.
     * @param checker     the check; created once, at setup.
     * @throws IllegalArgumentException if the name is not of that form or already declared.
     */
    void checker(String name, String description, StateChecker checker);
}
