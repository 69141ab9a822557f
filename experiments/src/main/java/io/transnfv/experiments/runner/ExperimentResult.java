package io.transnfv.experiments.runner;

import java.nio.file.Path;
import java.util.List;

/**
 * A finished experiment.
 *
 * @param settings     how it ran.
 * @param measurements one per point, in sweep order.
 * @param directory    where {@code data.csv}, the plots and {@code summary.md} are.
 * @param machine      the machine it ran on (cores, JVM, OS), one item per line.
 */
public record ExperimentResult(ExperimentSettings settings, List<Measurement> measurements, Path directory,
    List<String> machine)
{
    /** Copies the lists. */
    public ExperimentResult
    {
        measurements = List.copyOf(measurements);
        machine = List.copyOf(machine);
    }
}
