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
    void shouldRefuseAnUnknownRuntime()
    {
        final Captured run = Captured.run("run", "lb", "--generate", "packets=10", "--runtime", "spark");
        assertEquals(Failures.BAD_INPUT, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("--runtime must be standalone or flink"), run.err());
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
