package io.transnfv.experiments.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a result was measured on: cores, CPU model, JVM, heap, OS, and how busy the machine was. */
final class MachineInfo
{
    /**
     * A point is measured on a busy machine when the one-minute load average before one of its
     * runs exceeds the cores by this much: the experiment itself keeps up to one runnable
     * thread per core, anything beyond is another process taking the baselines' cores (their
     * per-batch barrier then collapses and flatters the engine by up to 2×).
     */
    static final double BUSY_MARGIN = 0.5;

    private MachineInfo()
    {
    }

    /** @return one {@code name: value} line per property. */
    static List<String> describe()
    {
        final List<String> lines = new ArrayList<>();
        lines.add("cores: " + Runtime.getRuntime().availableProcessors());
        lines.add("cpu: " + cpuModel());
        lines.add("jvm: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        lines.add("max heap: " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        lines.add("os: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        return lines;
    }

    /** @return the one-minute load average, or NaN where the system does not tell. */
    static double loadAverage()
    {
        try
        {
            final String line = Files.readString(Path.of("/proc/loadavg"));
            return Double.parseDouble(line.substring(0, line.indexOf(' ')));
        }
        catch (final IOException | RuntimeException e)
        {
            return Double.NaN;
        }
    }

    /** @return true if {@code loadAverage} means another process was using the cores. */
    static boolean busy(final double loadAverage)
    {
        return loadAverage > Runtime.getRuntime().availableProcessors() + BUSY_MARGIN;
    }

    private static String cpuModel()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo")))
            {
                if (line.startsWith("model name"))
                {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        catch (final IOException | SecurityException e)
        {
            return "unknown (" + e.getClass().getSimpleName() + ")";
        }
        return "unknown";
    }
}
