package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The VNFs' invariants as a user meets them: in the run's summary and report, and as verify's exit status 4. */
class InvariantCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldShowABrokenInvariantInTheSummaryAndTheReportOnBothExecutors() throws Exception
    {
        for (final String executor : new String[] {"tpg", "serial"})
        {
            final Path report = dir.resolve(executor + ".json");
            final Captured run = Captured.run("run", leakChain().toString(), "--generate", "packets=500", "--executor", executor,
                "--report", report.toString(), "--no-progress");
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("invariants BROKEN on the final state"), run.out());
            assertTrue(run.out().contains("leak table-stays-empty: 1 time(s); first at the end of the run: key 0 holds 500"), run.out());
            final String json = Files.readString(report, StandardCharsets.UTF_8);
            assertTrue(json.contains("\"invariant\":\"table-stays-empty\"") || json.contains("\"invariant\" : \"table-stays-empty\""), json);
        }
    }

    @Test
    void shouldCheckAtEveryHousekeepingTickWhenTheChainAsksTheSameOnBothExecutors() throws Exception
    {
        // 3,000 packets 1 ms apart in packet time: three seconds, a tick every second (the fragment tracker's sweep)
        final Path chain = dir.resolve("leak-ticks.yaml");
        Files.writeString(chain, "name: leak\nvnfs:\n  - name: leak\n    type: test-leak\nsettings:\n  invariants: ticks\n",
            StandardCharsets.UTF_8);
        String engineLine = null;
        for (final String executor : new String[] {"tpg", "serial"})
        {
            final Captured run = Captured.run("run", chain.toString(), "--generate", "packets=3000,rate_pps=1000", "--executor",
                executor, "--no-progress");
            assertEquals(0, run.status(), run.err());
            final String line = run.out().lines().filter(l -> l.contains("leak table-stays-empty")).findFirst().orElseThrow();
            assertTrue(line.contains("first at the housekeeping tick at packet time"), line);
            assertTrue(run.out().contains("invariants BROKEN at "), run.out());
            if (engineLine == null)
            {
                engineLine = line;
            }
            else
            {
                assertEquals(engineLine, line, "the same ticks see the same state on both executors");
            }
        }

        final Captured bad = Captured.run("validate", writeChain("settings:\n  invariants: always\n").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("bad invariants 'always'") || bad.out().contains("bad invariants 'always'"), bad.out() + bad.err());
    }

    private Path writeChain(final String settings) throws Exception
    {
        final Path chain = dir.resolve("leak-bad.yaml");
        Files.writeString(chain, "name: leak\nvnfs:\n  - name: leak\n    type: test-leak\n" + settings, StandardCharsets.UTF_8);
        return chain;
    }

    @Test
    void shouldSayTheInvariantsHeldOnABundledChain()
    {
        final Captured run = Captured.run("run", "nat-lb-td", "--generate", "packets=20000", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("held on the final state (3 VNFs checked)"), run.out());
    }

    @Test
    void shouldExitFourWhenTheEngineEqualsTheOracleButAnInvariantBreaks() throws Exception
    {
        final Captured verify = Captured.run("verify", leakChain().toString(), "--generate", "packets=300");
        assertEquals(VerifyCommand.INVARIANT_BROKEN, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("equal to the oracle"), verify.out());
        assertTrue(verify.out().contains("invariant broken in the oracle's run: leak table-stays-empty"), verify.out());
        assertTrue(verify.out().contains("invariant broken in the engine's run: leak table-stays-empty"), verify.out());

        final Captured json = Captured.run("verify", leakChain().toString(), "--generate", "packets=300", "--json");
        assertEquals(VerifyCommand.INVARIANT_BROKEN, json.status());
        assertTrue(json.out().contains("table-stays-empty"), json.out());
    }

    private Path leakChain() throws Exception
    {
        final Path chain = dir.resolve("leak.yaml");
        Files.writeString(chain, "name: leak\nvnfs:\n  - name: leak\n    type: test-leak\n", StandardCharsets.UTF_8);
        return chain;
    }
}
