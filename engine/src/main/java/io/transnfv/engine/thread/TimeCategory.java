package io.transnfv.engine.thread;

/**
 * Where a worker's time goes, counted on the thread where it happens. Measured at phase and
 * task boundaries (two clock reads per task), never per operation or packet.
 */
public enum TimeCategory
{
    /** Reading packets from the source into a batch (the ingress side of the IO role). */
    INGRESS("ingress"),
    /** VNF pre-processing: parsing packets and declaring transactions. */
    PREPROCESS("pre-process"),
    /** Gathering the transactions pre-processing declared, chunk by chunk, into the stage's log. */
    GATHER("gather"),
    /**
     * Building the task precedence graph: hashing entries into shards, appending them to their
     * key chains. Binding a key to its committed value is the same probe, so it is counted here.
     */
    BUILD("build"),
    /** Sealing: dependency counts, in-place marks, independent transactions. */
    SEAL("seal"),
    /** Running operations and transactions against the state table. */
    EXECUTE("execute"),
    /** The sequential steps between phases: decisions, partitions, abort resolution. */
    TRANSITION("transition"),
    /** Writing versions back and deleting emptied keys. */
    COLLAPSE("collapse"),
    /** VNF post-processing and routing. */
    POSTPROCESS("post-process"),
    /** Finishing packets in arrival order: listener, latency (the egress side of the IO role). */
    EGRESS("egress"),
    /** Waiting with work in flight elsewhere: another worker holds the critical path. */
    WAIT("hand-off wait"),
    /** Nothing to do: no batch in flight and no packet to read. */
    IDLE("idle");

    private static final TimeCategory[] VALUES = values();

    private final String label;

    TimeCategory(final String label)
    {
        this.label = label;
    }

    /** @return the name used in reports. */
    public String label()
    {
        return label;
    }

    /** @return the category with ordinal {@code ordinal}. */
    public static TimeCategory ofOrdinal(final int ordinal)
    {
        return VALUES[ordinal];
    }
}
