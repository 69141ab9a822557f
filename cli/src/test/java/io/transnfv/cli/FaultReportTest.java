package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code transnfv run} over a VNF that throws on some packets: the run completes, the summary
 * and the report list the fault, its first stack trace goes to the fault log and not to the
 * terminal; past the error bound the run stops with exit status 1 and says why.
 */
class FaultReportTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReportFaultsAndWriteTheirFirstStackTraceToTheFaultLogOnly() throws Exception
    {
        final Path chain = chain("every: 499");
        final Path report = dir.resolve("report.json");
        final Path faultLog = dir.resolve("faults.log");
        for (final String executor : new String[] {"serial", "tpg"})
        {
            final Captured run = Captured.run("run", chain.toString(), "--executor", executor, "--generate", "packets=20000",
                "--no-progress", "--report", report.toString(), "--fault-log", faultLog.toString());
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("faults in VNF code"), run.out());
            assertTrue(run.out().contains("thrower:vnf-error"), run.out());
            assertTrue(run.err().contains(faultLog.toString()), run.err());
            assertFalse(run.err().contains("\tat "), "a stack trace on the terminal: " + run.err());
            final JsonNode fault = new ObjectMapper().readTree(report.toFile()).path("faults").path(0);
            assertEquals("thrower", fault.path("vnf").asText());
            assertEquals("preProcess", fault.path("callback").asText());
            assertEquals(IllegalStateException.class.getName(), fault.path("exception").asText());
            assertTrue(fault.path("packets").asLong() > 10, fault::toString);
            final String log = Files.readString(faultLog, StandardCharsets.UTF_8);
            assertTrue(log.contains("thrower preProcess threw java.lang.IllegalStateException"), log);
            assertTrue(log.contains("\tat io.transnfv.cli.TestThrowFactory"), log);
        }
    }

    @Test
    void shouldStopPastTheErrorBoundWithStatusOneAndSayWhy() throws Exception
    {
        final Path chain = chain("every: 10");
        final Captured run = Captured.run("run", chain.toString(), "--generate", "packets=200000", "--no-progress",
            "--error-bound", "2%", "--fault-log", dir.resolve("faults.log").toString());
        assertEquals(1, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("above the error bound of 2 %"), run.err());
        assertTrue(run.err().contains("fix:"), run.err());
        assertTrue(run.out().contains("stopped"), run.out());
    }

    @Test
    void shouldRejectABadErrorBoundWithWhatToWrite()
    {
        final Captured run = Captured.run("run", "--error-bound", "lots", "--generate", "packets=10", "--no-progress");
        assertEquals(Failures.BAD_INPUT, run.status());
        assertTrue(run.err().contains("--error-bound: 'lots' is not a share; fix:"), run.err());
    }

    private Path chain(final String params) throws Exception
    {
        final Path chain = dir.resolve("throw.yaml");
        Files.writeString(chain, "name: throw\nvnfs:\n  - name: thrower\n    type: test-throw\n    params: { " + params + " }\n",
            StandardCharsets.UTF_8);
        return chain;
    }
}
