package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code run} and {@code verify} with {@code --runtime flink}: a MiniCluster inside the command. */
class FlinkRuntimeCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheStandaloneRunsFilesWhenTheChainsTablesMakeTheSubtasksIndependent() throws IOException
    {
        // nat-lb-td's NAT port pool and load table are single: every packet meets on subtask 0
        final Captured flink = Captured.run("run", "nat-lb-td", "--generate", "packets=6000", "--runtime", "flink",
            "--parallelism", "2", "--no-progress", "--records", dir.resolve("flink.txt").toString(),
            "--out", dir.resolve("flink.pcap").toString(), "--state", dir.resolve("flink-state.txt").toString());
        assertEquals(0, flink.status(), flink.out() + flink.err());
        final Captured standalone = Captured.run("run", "nat-lb-td", "--generate", "packets=6000", "--no-progress",
            "--records", dir.resolve("standalone.txt").toString(), "--out", dir.resolve("standalone.pcap").toString(),
            "--state", dir.resolve("standalone-state.txt").toString());
        assertEquals(0, standalone.status(), standalone.out() + standalone.err());

        assertTrue(flink.out().contains("routed by single (table nat.ports is single)"), flink.out());
        assertTrue(flink.out().contains("flink checkpoints"), flink.out());
        assertTrue(flink.out().contains("packets in           6,000"), flink.out());
        for (final String file : new String[] {".txt", ".pcap", "-state.txt"})
        {
            assertArrayEquals(Files.readAllBytes(dir.resolve("standalone" + file)), Files.readAllBytes(dir.resolve("flink" + file)),
                file);
        }
        assertEquals(counterLines(standalone.out()), counterLines(flink.out()));
    }

    @Test
    void shouldVerifyEachSubtaskAgainstTheOracleOverItsOwnPackets()
    {
        final Captured verify = Captured.run("verify", "lb", "--generate", "packets=6000", "--runtime", "flink", "--parallelism", "2");
        assertEquals(VerifyCommand.EQUIVALENT, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("subtask 0, against the oracle over its packets"), verify.out());
        assertTrue(verify.out().contains("subtask 1, against the oracle over its packets"), verify.out());
        assertTrue(verify.out().contains("union: not compared: lb.active, lb.bytes"), verify.out());
    }

    @Test
    void shouldRefuseTablesNoRoutingKeyCanKeepTogetherAtTheDeclaration() throws IOException
    {
        final Path chain = Files.writeString(dir.resolve("conflict.yaml"), """
            name: conflict
            vnfs:
              - name: fw
                type: firewall
                params: { internal_net: [10.0.0.0/8] }
              - name: scan
                type: port-scan-detector
                tables:
                  sources: { distribution: by-source-host }
            edges:
              - from: fw
                to: scan
            """);
        final Captured validate = Captured.run("validate", chain.toString());
        assertEquals(Failures.BAD_INPUT, validate.status(), validate.out() + validate.err());
        final String said = validate.out() + validate.err();
        assertTrue(said.contains("conflict.yaml:9:"), said);
        assertTrue(said.contains("table scan.sources is by-source-host and table fw.connections"), said);
        assertTrue(said.contains("fix: declare one of them 'distribution: single'"), said);
    }

    @Test
    void shouldRefuseTheControlPlaneSayingWhyInsteadOfIgnoringIt()
    {
        final Captured http = Captured.run("run", "lb", "--generate", "packets=100", "--runtime", "flink", "--http", "0");
        assertEquals(2, http.status(), http.out() + http.err());
        assertTrue(http.err().contains("--http cannot be used with --runtime flink"), http.err());
        assertTrue(http.err().contains("a live parameter change cannot yet reach them all at one packet position"), http.err());
        assertTrue(http.err().contains("fix: drop it"), http.err());
        final Captured stats = Captured.run("run", "lb", "--generate", "packets=100", "--runtime", "flink", "--stats-interval", "1s");
        assertEquals(2, stats.status(), stats.out() + stats.err());
        assertTrue(stats.err().contains("--stats-interval cannot be used with --runtime flink"), stats.err());
    }

    @Test
    void shouldRefuseAnUnknownRuntime()
    {
        final Captured run = Captured.run("run", "lb", "--generate", "packets=10", "--runtime", "spark");
        assertEquals(Failures.BAD_INPUT, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("--runtime must be standalone or flink"), run.err());
    }

    @Test
    void shouldStopWithASavepointAndResumeAtAnotherParallelismToTheStandaloneRunsFiles() throws IOException
    {
        final Path chain = TrojanByHostChain.write(dir, 9000);
        final Path savepoints = dir.resolve("stopped");
        final String[] common = {chain.toString(), "--runtime", "flink", "--flink-batch", "250", "--no-progress"};
        final Captured first = Captured.run(with(common, "run", "--parallelism", "2", "--stop-with-savepoint-after", "3000",
            "--savepoint-dir", savepoints.toString()));
        assertEquals(0, first.status(), first.out() + first.err());
        assertTrue(first.out().contains("stopped with a savepoint after 3,000 packets at parallelism 2"), first.out());
        final Captured second = Captured.run(with(common, "run", "--parallelism", "4", "--from-savepoint", savepoints.toString(),
            "--stop-with-savepoint-after", "6000"));
        assertEquals(0, second.status(), second.out() + second.err());
        assertTrue(second.out().contains("after 6,000 packets at parallelism 4 (resumed at 3,000 from parallelism 2)"), second.out());
        final Captured last = Captured.run(with(common, "run", "--parallelism", "1", "--from-savepoint", savepoints.toString(),
            "--records", dir.resolve("rescaled.txt").toString(), "--out", dir.resolve("rescaled.pcap").toString(),
            "--state", dir.resolve("rescaled-state.txt").toString()));
        assertEquals(0, last.status(), last.out() + last.err());
        assertTrue(last.out().contains("from a savepoint after 6,000 packets, parallelism 4 -> 1; pause "), last.out());

        final Captured standalone = Captured.run("run", chain.toString(), "--no-progress", "--records",
            dir.resolve("standalone.txt").toString(), "--out", dir.resolve("standalone.pcap").toString(),
            "--state", dir.resolve("standalone-state.txt").toString());
        assertEquals(0, standalone.status(), standalone.out() + standalone.err());
        for (final String file : new String[] {".txt", ".pcap", "-state.txt"})
        {
            assertArrayEquals(Files.readAllBytes(dir.resolve("standalone" + file)), Files.readAllBytes(dir.resolve("rescaled" + file)),
                file);
        }
        assertEquals(counterLines(standalone.out()), counterLines(last.out()));

        final Captured again = Captured.run(with(common, "run", "--from-savepoint", savepoints.toString()));
        assertEquals(Failures.BAD_INPUT, again.status(), again.out() + again.err());
        assertTrue(again.err().contains("has run to its end already: nothing is left to resume"), again.err());
        final Captured standaloneStop = Captured.run("run", chain.toString(), "--stop-with-savepoint-after", "10",
            "--savepoint-dir", dir.resolve("other").toString());
        assertTrue(standaloneStop.err().contains("--stop-with-savepoint-after needs --runtime flink"), standaloneStop.err());
    }

    private static String[] with(final String[] common, final String... args)
    {
        final String[] all = new String[args.length + common.length];
        all[0] = args[0];
        System.arraycopy(common, 0, all, 1, common.length);
        System.arraycopy(args, 1, all, 1 + common.length, args.length - 1);
        return all;
    }

    private static String counterLines(final String summary)
    {
        final StringBuilder lines = new StringBuilder();
        for (final String line : summary.split("\n"))
        {
            // the VNFs' counters (not the engine's per-thread lines), drops, alerts
            if (line.matches(" {4}[a-z]+\\.[a-z-]+ +[0-9,]+") || line.startsWith("drops") || line.startsWith("alerts")
                || line.startsWith("forwarded"))
            {
                lines.append(line).append('\n');
            }
        }
        return lines.toString();
    }
}
