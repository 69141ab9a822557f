package io.transnfv.experiments.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a result was measured on: cores, CPU model, JVM, heap, OS. */
final class MachineInfo
{
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
