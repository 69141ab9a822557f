package io.transnfv.scheduler;

/**
 * The scheduler's tuning constants, in one place: each with its unit and why it has its value.
 * The two thresholds of the heuristic decision model are where the measured best policy changes
 * on the machine of docs/PERFORMANCE.md; another machine may put the crossing elsewhere, so they
 * can be overridden ({@code -Dtransnfv.<name>=<value>}, e.g. through {@code TRANSNFV_JAVA_OPTS};
 * docs/user-guide.md). The feedback model's constants shape a learning algorithm and are tested
 * against a simulated machine ({@code FeedbackDecisionModelTest}): they are not meant to be
 * changed per deployment. docs/design/scheduling.md gives the measurements behind them.
 */
public final class SchedulerTuning
{
    // ---------------------------------------------------------------- heuristic decision model

    /**
     * Recent abort ratio (aborted transactions over transactions, 0..1) up to which abort handling
     * is lazy, above which eager: beyond it lazy's serial re-execution costs more than its earlier
     * release saves ({@code aborts}, ~40 % aborting: lazy 1.3-1.5x eager; no aborts: lazy ties or
     * wins). {@code transnfv.heuristic.lazy.max.abort.ratio}.
     */
    public static final double LAZY_MAX_ABORT_RATIO = doubleProperty("transnfv.heuristic.lazy.max.abort.ratio", 0.02, 0.0, 1.0);

    /**
     * Contended chain length (operations: the chain an average access sits in) from which, with
     * more than one executor, a key's chain is handed over as one unit: below it operation units
     * lead by 5-20 % (LB, uniform), at ~1,000 ({@code skewed}) groups lead.
     * {@code transnfv.heuristic.group.min.chain}.
     */
    public static final double GROUP_MIN_CHAIN = doubleProperty("transnfv.heuristic.group.min.chain", 512.0, 1.0, Double.MAX_VALUE);

    // ---------------------------------------------------------------- batch statistics

    /**
     * Weight of the newest batch in the recent averages (abort ratio, useful ns per operation): an
     * exponential moving average whose newest four batches carry two thirds of the weight, so a
     * workload that starts aborting turns eager within a few batches and one odd batch does not.
     */
    public static final double RECENT_WEIGHT = 0.25;

    /**
     * Table sets (the tables a batch's keys belong to) whose recent averages are kept apart, least
     * recently seen replaced: one executor runs every VNF of a chain in turn, and one VNF's aborts
     * must not turn another's batches eager. Eight covers the shipped chains' VNFs.
     */
    public static final int TABLE_SET_SLOTS = 8;

    // ---------------------------------------------------------------- feedback decision model

    /** Batches every policy runs in a new context before the model exploits (a sweep: 12 policies x this). */
    public static final int FEEDBACK_SWEEP_SAMPLES = 2;

    /** Batches of a context between two explorations of a plausible policy: at most 1/16 of batches explore. */
    public static final int FEEDBACK_EXPLORE_EVERY = 16;

    /** Batches of a context between two re-checks of an implausible policy, so one that became cheaper is found. */
    public static final int FEEDBACK_RECHECK_EVERY = 128;

    /** A policy is plausible (worth exploring) while its estimate is at most this factor of the incumbent's. */
    public static final double FEEDBACK_PLAUSIBLE_FACTOR = 1.25;

    /** A challenger replaces the incumbent only if its estimate is lower by at least this share (2 %)... */
    public static final double FEEDBACK_SWITCH_MARGIN = 0.02;

    /** ...by at least this many standard errors of the difference of the two medians (noisier batches, surer model)... */
    public static final double FEEDBACK_SWITCH_CONFIDENCE = 1.5;

    /** ...and rests on at least this many fresh samples. */
    public static final int FEEDBACK_MIN_EVIDENCE = 3;

    /** Samples per (context, policy) an estimate is the median of: one GC pause does not move it. */
    public static final int FEEDBACK_SAMPLES = 16;

    /** Batches of a context after which a sample no longer counts (unless it is the policy's newest). */
    public static final int FEEDBACK_STALE_BATCHES = 256;

    /** Batches the context's level (what a policy of relative cost 1 costs now) is the median of. */
    public static final int FEEDBACK_LEVEL_BATCHES = 9;

    /** Batches of a context between two recomputations of every policy's estimate (samples age out). */
    public static final int FEEDBACK_REFRESH_EVERY = 16;

    /**
     * Upper edges of the feedback model's contended-chain buckets (operations), logarithmic: about
     * one access per key, short chains, LB-like chains, long chains, and hot keys (from the last on).
     */
    public static final double FEEDBACK_CHAIN_EDGE_SINGLE = 2;
    /** See {@link #FEEDBACK_CHAIN_EDGE_SINGLE}. */
    public static final double FEEDBACK_CHAIN_EDGE_SHORT = 8;
    /** See {@link #FEEDBACK_CHAIN_EDGE_SINGLE}. */
    public static final double FEEDBACK_CHAIN_EDGE_MEDIUM = 64;
    /** See {@link #FEEDBACK_CHAIN_EDGE_SINGLE}; the heuristic's {@link #GROUP_MIN_CHAIN} default, kept apart from its override. */
    public static final double FEEDBACK_CHAIN_EDGE_LONG = 512;

    /** Upper edges (inclusive) of the feedback model's abort-ratio buckets: none to speak of (0.5 %), a few (5 %), many. */
    public static final double FEEDBACK_ABORTS_RARE = 0.005;
    /** See {@link #FEEDBACK_ABORTS_RARE}. */
    public static final double FEEDBACK_ABORTS_FEW = 0.05;

    /** Parametric-dependency share (PD edges over all edges) from which a batch counts as parameter-heavy. */
    public static final double FEEDBACK_PARAMETRIC_SHARE = 0.25;

    private SchedulerTuning()
    {
    }

    private static double doubleProperty(final String name, final double defaultValue, final double min, final double max)
    {
        final String text = System.getProperty(name);
        if (text == null)
        {
            return defaultValue;
        }
        try
        {
            final double value = Double.parseDouble(text.trim());
            if (!(value >= min && value <= max))
            {
                throw new IllegalArgumentException("-D" + name + "=" + text + " is outside " + min + ".." + max);
            }
            return value;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("-D" + name + "=" + text + " is not a number", e);
        }
    }
}
