package io.transnfv.engine;

/**
 * The engine's tuning constants, in one place: each with its default, its meaning and the
 * system property that overrides it ({@code -Dtransnfv.<name>=<value>}, e.g. through
 * {@code TRANSNFV_JAVA_OPTS}). Settings a chain author chooses (batch size, punctuation
 * interval, latency target, threads) live in the chain's settings, not here: these are the
 * knobs of the machinery, measured once and rarely worth changing.
 */
public final class EngineConfiguration
{
    /**
     * Batches with fewer scheduled operations and independent transactions than this run on one
     * worker (waking another costs more than it saves). {@code transnfv.min.parallel.work}.
     */
    public static final int MIN_PARALLEL_WORK = intProperty("transnfv.min.parallel.work", 64, 1);

    /**
     * With an adaptive strategy, a batch that several workers could share runs on the graph only
     * while the graph's measured wall time per operation is this many percent faster than the
     * serial schedule's on one worker (which leaves the other workers free for ingress, egress
     * and pre-processing). {@code transnfv.graph.speedup.percent}; 100 picks the faster wall time.
     */
    public static final int GRAPH_SPEEDUP_PERCENT = intProperty("transnfv.graph.speedup.percent", 125, 100);

    /**
     * Batches between two tries of the way (graph or serial schedule) not currently chosen: fewer
     * notice a change of workload sooner, more waste less time on the slower way.
     * {@code transnfv.graph.reprobe.every}.
     */
    public static final int GRAPH_REPROBE_EVERY = intProperty("transnfv.graph.reprobe.every", 64, 2);

    /**
     * Decisions at the start of a measured graph-or-serial choice that alternate between the two
     * ways before the estimates are trusted. {@code transnfv.width.warm.up}.
     */
    public static final int WIDTH_WARM_UP = intProperty("transnfv.width.warm.up", 16, 2);

    /**
     * Samples per way that a measured choice's estimate is the median of: one outlier (a GC
     * pause) does not move it. {@code transnfv.width.samples}.
     */
    public static final int WIDTH_SAMPLES = intProperty("transnfv.width.samples", 5, 1);

    /**
     * Key shards of the task precedence graph per worker: the unit of parallel build, bind and
     * collapse (more than one per worker balances uneven shards). {@code transnfv.graph.shards.per.worker}.
     */
    public static final int GRAPH_SHARDS_PER_WORKER = intProperty("transnfv.graph.shards.per.worker", 2, 1);

    /** Packets per pre- or post-processing task. {@code transnfv.stage.chunk.packets}. */
    public static final int STAGE_CHUNK_PACKETS = intProperty("transnfv.stage.chunk.packets", 32, 1);

    /**
     * Most pre- or post-processing tasks per batch: a large batch gets larger chunks rather than
     * more of them (per-chunk transaction logs are kept per frame). {@code transnfv.stage.max.chunks}.
     */
    public static final int STAGE_MAX_CHUNKS = intProperty("transnfv.stage.max.chunks", 64, 1);

    /**
     * Load (percent of slots used) at which a state table shard grows between batches: linear
     * probing stays short, about 1.5 probes to find a key. {@code transnfv.state.load.percent}.
     */
    public static final int STATE_LOAD_PERCENT = intProperty("transnfv.state.load.percent", 50, 10);

    /**
     * Load a batch may fill a state table shard to before the batch must restart after the shard
     * grows (slots cannot move while a batch runs): probes stay under about 8. Above
     * {@link #STATE_LOAD_PERCENT}, below 100. {@code transnfv.state.batch.load.percent}.
     */
    public static final int STATE_BATCH_LOAD_PERCENT = intProperty("transnfv.state.batch.load.percent", 75, 11);

    /**
     * Polls an executor makes for ready work before it leaves the execution phase to look for
     * other work. {@code transnfv.execute.polls}.
     */
    public static final int EXECUTE_POLLS = intProperty("transnfv.execute.polls", 32, 1);

    /** Busy spins of an idle worker before it yields. {@code transnfv.idle.spins}. */
    public static final int IDLE_SPINS = intProperty("transnfv.idle.spins", 64, 0);

    /** Yields of an idle worker before it parks. {@code transnfv.idle.yields}. */
    public static final int IDLE_YIELDS = intProperty("transnfv.idle.yields", 32, 0);

    /** First park of an idle worker, in nanoseconds; each park doubles it. {@code transnfv.idle.min.park.ns}. */
    public static final long IDLE_MIN_PARK_NS = intProperty("transnfv.idle.min.park.ns", 1_000, 1);

    /** Longest park of an idle worker, in nanoseconds. {@code transnfv.idle.max.park.ns}. */
    public static final long IDLE_MAX_PARK_NS = intProperty("transnfv.idle.max.park.ns", 100_000, 1);

    /**
     * Engage workers by load: one polls while batches hold a packet or two, all once packets wait
     * (see {@code Engagement}); false keeps every worker polling whatever the load (for
     * cores dedicated to the engine). {@code transnfv.engage.adaptive}.
     */
    public static final boolean ENGAGE_ADAPTIVE = Boolean.parseBoolean(System.getProperty("transnfv.engage.adaptive", "true"));

    /**
     * Small batches in a row after which one worker is enough. {@code transnfv.engage.narrow.after}.
     */
    public static final int ENGAGE_NARROW_AFTER = intProperty("transnfv.engage.narrow.after", 64, 1);

    /**
     * The most packets of a batch that counts as small for {@link #ENGAGE_NARROW_AFTER}: the input
     * runs dry between packets. {@code transnfv.engage.small.batch}.
     */
    public static final int ENGAGE_SMALL_BATCH = intProperty("transnfv.engage.small.batch", 2, 1);

    /** Slots of the ingress ring between a source's reading thread and its consumer (a power of two). {@code transnfv.ingress.ring.slots}. */
    public static final int INGRESS_RING_SLOTS = intProperty("transnfv.ingress.ring.slots", 1024, 2);

    /**
     * One packet in this many has its latency measured: a clock read at ingress and a histogram
     * record at egress; which ones, {@link #latencySampled}. {@code transnfv.latency.sample.every}.
     */
    public static final int LATENCY_SAMPLE_EVERY = intProperty("transnfv.latency.sample.every", 8, 1);

    /**
     * @return true if the packet with arrival index {@code sequence} has its latency measured: one in
     *         {@link #LATENCY_SAMPLE_EVERY}, picked by a hash of the index rather than every n-th, so that
     *         traffic with a period (several generated streams merged at fixed rates, say) cannot make
     *         the samples all fall on the same stream. Every executor asks this for the same packets.
     */
    public static boolean latencySampled(final long sequence)
    {
        final int every = LATENCY_SAMPLE_EVERY;
        if (every == 1)
        {
            return true;
        }
        long z = sequence + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (every & (every - 1)) == 0 ? (z & (every - 1)) == 0 : Long.remainderUnsigned(z, every) == 0;
    }

    // ---------------------------------------------------------------- fixed: no property (docs/user-guide.md says why)

    /**
     * How long closing a failed run waits for its workers to leave (one may be finishing a
     * checkpoint's file) before it leaves those stuck in VNF code behind.
     */
    public static final long FAILED_RUN_GRACE_MS = 2_000;

    /**
     * Slots of a paced source's virtual receive ring unless {@code --rx-ring} says otherwise: a
     * common NIC receive ring, so a paced run drops where a port of that size would.
     */
    public static final int PACED_RX_RING_SLOTS = 1024;

    /**
     * Packets between two looks at a filling batch's age and the workers' idleness by the ingress
     * (a power of two): a clock read per packet would cost more than the batch deadlines it
     * serves (microseconds) need.
     */
    public static final int INGRESS_CHECK_EVERY_PACKETS = 8;

    /**
     * Weight of the newest batch in the punctuation's moving average of processing cost per
     * packet (what a latency target sizes batches from): eight batches to follow a change, one odd
     * batch moves it by an eighth.
     */
    public static final double PUNCTUATION_COST_WEIGHT = 0.125;

    /**
     * A batch closes early for idle workers once it holds this fraction (1/n) of its limit: fewer
     * packets would cost a batch's fixed overhead on a handful of packets.
     */
    public static final int PUNCTUATION_ENGINE_IDLE_FRACTION = 4;

    /** A worker that waits this long (ns) for work in flight reports the job's state once: a stall is a bug. */
    public static final long WORKER_STALL_REPORT_NS = 5_000_000_000L;

    /** A disengaged worker's park (ns): engaging it wakes it at once; this only bounds a missed wake-up. */
    public static final long WORKER_DISENGAGED_PARK_NS = 1_000_000L;

    /** The park (ns) of a caller waiting for a worker group it is not part of: it only watches for the end or a failure. */
    public static final long WORKER_WAITER_PARK_NS = 1_000_000L;

    /**
     * Packets between two looks at a pending snapshot request by the serial oracle (a power of
     * two): one volatile read each, and a snapshot is asked for at most every few milliseconds.
     */
    public static final int SERIAL_SNAPSHOT_CHECK_EVERY_PACKETS = 256;

    static
    {
        if (STATE_BATCH_LOAD_PERCENT <= STATE_LOAD_PERCENT || STATE_BATCH_LOAD_PERCENT > 95)
        {
            throw new IllegalArgumentException("-Dtransnfv.state.batch.load.percent=" + STATE_BATCH_LOAD_PERCENT
                + " must be above -Dtransnfv.state.load.percent=" + STATE_LOAD_PERCENT + " and at most 95");
        }
    }

    private EngineConfiguration()
    {
    }

    private static int intProperty(final String name, final int defaultValue, final int min)
    {
        final String text = System.getProperty(name);
        if (text == null)
        {
            return defaultValue;
        }
        try
        {
            final int value = Integer.parseInt(text.trim());
            if (value < min)
            {
                throw new IllegalArgumentException("-D" + name + "=" + text + " is below its minimum " + min);
            }
            return value;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("-D" + name + "=" + text + " is not a whole number", e);
        }
    }
}
