package io.transnfv.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The help a user reads: whole sentences, wrapped by the terminal's width rather than broken by hand. */
class HelpTextTest
{
    @Test
    void shouldWrapEveryCommandsDescriptionAtTheWidthNotMidSentence()
    {
        for (final String command : List.of("run", "verify", "validate", "vnfs", "experiment", "doctor"))
        {
            final List<String> lines = Captured.run(command, "--help").out().lines().toList();
            // the description runs from the line after the usage block to the first option
            int i = 0;
            while (i < lines.size() && (lines.get(i).startsWith("Usage:") || lines.get(i).startsWith(" ")))
            {
                i++;
            }
            for (; i < lines.size() && !lines.get(i).startsWith(" "); i++)
            {
                final String line = lines.get(i).strip();
                final boolean ended = line.endsWith(".") || line.endsWith(":") || line.endsWith(")");
                assertTrue(ended || line.length() > 60, command + ": a short line that ends mid-sentence: '" + line + "'");
            }
        }
    }

    @Test
    void shouldRenderEveryOptionsDescriptionWithoutAFormatWarning()
    {
        // picocli formats descriptions: a bare '%' breaks the format, and picocli then warns on stderr
        for (final String command : List.of("run", "verify", "validate", "vnfs", "experiment", "doctor"))
        {
            final Captured help = Captured.run(command, "--help");
            assertFalse(help.err().contains("WARN"), command + ": " + help.err());
        }
        final String run = Captured.run("run", "--help").out().replaceAll("\\s+", " ");
        assertTrue(run.contains("e.g. 1% or 0.01 (default 1%; 100% never stops)"), run);
    }

    @Test
    void shouldShowEachCommandsWholeFirstSentenceInTheTopLevelHelp()
    {
        final String help = Captured.run("--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("verify Check the engine against the serial oracle: run both on the same traffic and compare"
            + " every packet's output record and the final state (chain output equivalence)."), help);
    }

    @Test
    void shouldShowDurationsInUnitsAndParameterRangesInTheVnfList()
    {
        final String vnfs = Captured.run("vnfs").out();
        assertTrue(vnfs.replaceAll("\\s+", " ").contains("idle_timeout duration 1ms.. (default 1m)"), vnfs);
        assertFalse(vnfs.contains("60000000000"), vnfs);
        assertTrue(vnfs.replaceAll("\\s+", " ").contains("pool_size int 1..64512 (default 4096)"), vnfs);
    }

    @Test
    void shouldShowDurationsInUnitsWhenDescribingAValidChain()
    {
        final Captured validate = Captured.run("validate", "lb");
        assertTrue(validate.out().contains("idle_timeout=1m"), validate.out());
        assertFalse(validate.out().contains("60000000000"), validate.out());
    }
}
