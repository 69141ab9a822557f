package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The VNFs' state checkers as a user meets them: in the run's summary, its alerts and its JSON
 * report, at the punctuations the chain asks for, and as verify's exit status 4.
 */
class CheckerCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldShowAViolatedCheckerInTheSummaryTheAlertsAndTheReportOnBothExecutors() throws Exception
    {
        for (final String executor : new String[] {"tpg", "serial"})
        {
            final Path report = dir.resolve(executor + ".json");
            final Captured run = Captured.run("run", leakChain("").toString(), "--generate", "packets=500", "--executor", executor,
                "--report", report.toString(), "--no-progress");
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("checkers VIOLATED at the end, 1 check"), run.out());
            assertTrue(run.out().contains("leak.table-stays-empty: 1 violation(s); first at the end of the run, key 0: key 0 holds 500"),
                run.out());
            assertTrue(run.out().contains("leak:checker:table-stays-empty"), "raised as an alert: " + run.out());
            final String json = Files.readString(report, StandardCharsets.UTF_8).replace(" ", "");
            assertTrue(json.contains("\"checker\":\"table-stays-empty\""), json);
            assertTrue(json.contains("\"type\":\"checker:table-stays-empty\""), json);
            assertTrue(json.contains("\"first_message\":\"key0holds500\""), json);
        }
    }

    @Test
    void shouldCheckAtTheConfiguredPunctuationsTheSameOnBothExecutors() throws Exception
    {
        // 3,000 packets 1 ms apart in packet time: three seconds, a check every second and one at the end
        final Path chain = leakChain("settings:\n  checkers: { every: 1s }\n");
        String engineLine = null;
        for (final String executor : new String[] {"tpg", "serial"})
        {
            final Captured run = Captured.run("run", chain.toString(), "--generate", "packets=3000,rate_pps=1000", "--executor",
                executor, "--no-progress");
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("checkers VIOLATED every 1000 ms of packet time and at the end, 3 checks"), run.out());
            final String line = run.out().lines().filter(l -> l.contains("leak.table-stays-empty")).findFirst().orElseThrow();
            assertTrue(line.contains("3 violation(s); first at the check before packet #"), line);
            if (engineLine == null)
            {
                engineLine = line;
            }
            else
            {
                assertEquals(engineLine, line, "the same punctuations see the same state on both executors");
            }
        }
    }

    @Test
    void shouldRunNoCheckerTheChainDoesNotEnable() throws Exception
    {
        final Captured run = Captured.run("run", leakChain("settings:\n  checkers: { enabled: [] }\n").toString(), "--generate",
            "packets=200", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("checkers            none enabled") || run.out().contains("none enabled"), run.out());
        assertFalse(run.out().contains("table-stays-empty"), run.out());
    }

    @Test
    void shouldRefuseAnUnknownCheckerAtItsLine() throws Exception
    {
        final Captured bad = Captured.run("validate", leakChain("settings:\n  checkers: { enabled: [leak.table-stays-emty] }\n").toString());
        assertEquals(2, bad.status());
        final String said = bad.out() + bad.err();
        assertTrue(said.contains("leak.yaml:6:25: unknown checker 'leak.table-stays-emty'"), said);
        assertTrue(said.contains("did you mean 'leak.table-stays-empty'?"), said);
    }

    @Test
    void shouldSayTheCheckersHeldOnABundledChain()
    {
        final Captured run = Captured.run("run", "nat-lb-td", "--generate", "packets=20000", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("6 checkers held at the end, 1 check"), run.out());
    }

    @Test
    void shouldExitFourWhenTheEngineEqualsTheOracleButACheckerIsViolatedEvenIfTheChainDisablesIt() throws Exception
    {
        // verify runs every checker, whatever the chain enables
        final Path chain = leakChain("settings:\n  checkers: { enabled: [] }\n");
        final Captured verify = Captured.run("verify", chain.toString(), "--generate", "packets=300");
        assertEquals(VerifyCommand.CHECKER_VIOLATED, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("equal to the oracle"), verify.out());
        assertTrue(verify.out().contains("checker violated in the oracle's run: leak.table-stays-empty"), verify.out());
        assertTrue(verify.out().contains("checker violated in the engine's run: leak.table-stays-empty"), verify.out());

        final Captured json = Captured.run("verify", chain.toString(), "--generate", "packets=300", "--json");
        assertEquals(VerifyCommand.CHECKER_VIOLATED, json.status());
        assertTrue(json.out().contains("table-stays-empty"), json.out());
    }

    @Test
    void shouldListEachTypesCheckersWithTheVnfTypes()
    {
        final Captured vnfs = Captured.run("vnfs");
        assertEquals(0, vnfs.status(), vnfs.err());
        assertTrue(vnfs.out().contains("checker port-owned-by-its-mapping"), vnfs.out());
        assertTrue(vnfs.out().contains("checker load-counts-its-connections"), vnfs.out());
    }

    private Path leakChain(final String settings) throws Exception
    {
        final Path chain = dir.resolve("leak.yaml");
        Files.writeString(chain, "name: leak\nvnfs:\n  - name: leak\n    type: test-leak\n" + settings, StandardCharsets.UTF_8);
        return chain;
    }
}
