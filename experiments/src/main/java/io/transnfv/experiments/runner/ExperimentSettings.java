package io.transnfv.experiments.runner;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How one experiment runs: every setting's one home, with its default.
 *
 * @param experiment   which experiment.
 * @param quick        the short version: fewer packets and repetitions, for a check in minutes.
 * @param threads      executor threads (the engine) and workers (the baselines); for
 *                     {@code threads}, the largest count of the sweep.
 * @param repetitions  measured runs per point; the median is reported with the min and max.
 * @param warmups      unmeasured runs per point before the measured ones; the first also
 *                     counts divergences from the oracle.
 * @param packets      packets per run.
 * @param outputRoot   results go to {@code outputRoot/<experiment>/<timestamp>/}.
 * @param offeredLoadPercents {@code latency} only: the offered loads of the sweep, in percent of
 *                     the engine's measured capacity, ascending.
 * @param engineLatencyTargetNs the latency target the engine sizes its batches for, 0 for none
 *                     (batches of the point's transaction count).
 */
public record ExperimentSettings(
    Experiment experiment, boolean quick, int threads, int repetitions, int warmups, int packets, Path outputRoot,
    List<Integer> offeredLoadPercents, long engineLatencyTargetNs)
{
    /** Packets per run in a full run. */
    public static final int FULL_PACKETS = 1_000_000;
    /** Packets per run in a quick run. */
    public static final int QUICK_PACKETS = 200_000;
    /** Measured runs per point in a full run. */
    public static final int FULL_REPETITIONS = 5;
    /** Measured runs per point in a quick run. */
    public static final int QUICK_REPETITIONS = 3;
    /** Offered loads of a full {@code latency} run, in percent of the engine's capacity. */
    public static final List<Integer> FULL_OFFERED_LOAD_PERCENTS = List.of(10, 25, 50, 75, 90, 100, 110, 120);
    /** Offered loads of a quick {@code latency} run, in percent of the engine's capacity. */
    public static final List<Integer> QUICK_OFFERED_LOAD_PERCENTS = List.of(25, 50, 90, 120);

    /** Validates the settings. */
    public ExperimentSettings
    {
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(outputRoot, "outputRoot");
        offeredLoadPercents = List.copyOf(offeredLoadPercents);
        if (threads < 1 || repetitions < 1 || warmups < 1 || packets < 1)
        {
            throw new IllegalArgumentException("threads, repetitions, warm-ups and packets must be >= 1");
        }
        if (engineLatencyTargetNs < 0)
        {
            throw new IllegalArgumentException("the engine's latency target must be >= 0: " + engineLatencyTargetNs);
        }
        if (offeredLoadPercents.isEmpty() || offeredLoadPercents.stream().anyMatch(p -> p < 1))
        {
            throw new IllegalArgumentException("offered loads must be one or more percentages >= 1: " + offeredLoadPercents);
        }
    }

    /**
     * @param percents the offered loads of a {@code latency} sweep, in percent of the engine's capacity.
     * @return these settings with that sweep.
     */
    public ExperimentSettings withOfferedLoadPercents(final Integer... percents)
    {
        return new ExperimentSettings(experiment, quick, threads, repetitions, warmups, packets, outputRoot,
            List.of(percents), engineLatencyTargetNs);
    }

    /**
     * @param targetNs the latency target the engine sizes its batches for ({@code --latency-target}), 0 for none;
     *                 the baselines have no batches to size.
     * @return these settings with that target.
     */
    public ExperimentSettings withEngineLatencyTarget(final long targetNs)
    {
        return new ExperimentSettings(experiment, quick, threads, repetitions, warmups, packets, outputRoot,
            offeredLoadPercents, targetNs);
    }

    /**
     * @param experiment  which experiment.
     * @param quick       whether to run the short version.
     * @param threads     threads, or 0 for one per available core.
     * @param repetitions measured runs per point, or 0 for the default of the mode.
     * @param packets     packets per run, or 0 for the default of the mode.
     * @param outputRoot  the results directory.
     * @return the settings, defaults filled in.
     */
    public static ExperimentSettings of(
        final Experiment experiment, final boolean quick, final int threads, final int repetitions, final int packets,
        final Path outputRoot)
    {
        return new ExperimentSettings(experiment, quick,
            threads > 0 ? threads : Runtime.getRuntime().availableProcessors(),
            repetitions > 0 ? repetitions : quick ? QUICK_REPETITIONS : FULL_REPETITIONS,
            1,
            packets > 0 ? packets : quick ? QUICK_PACKETS : FULL_PACKETS,
            outputRoot,
            quick ? QUICK_OFFERED_LOAD_PERCENTS : FULL_OFFERED_LOAD_PERCENTS,
            0L);
    }
}
