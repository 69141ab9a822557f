package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line as a user drives it: exit statuses, files written, messages. */
class TransnfvCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunTheDefaultChainAndWriteEveryRequestedOutput() throws IOException
    {
        final Path report = dir.resolve("report.json");
        final Path records = dir.resolve("records.txt");
        final Path state = dir.resolve("state.txt");
        final Path out = dir.resolve("out.pcap");
        final Captured run = Captured.run("run", "--generate", "packets=2000,seed=5", "--no-progress",
            "--report", report.toString(), "--records", records.toString(), "--state", state.toString(),
            "--out", out.toString());

        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("nat-lb-td"), run.out());
        assertTrue(run.out().contains("packets in"), run.out());
        assertTrue(run.out().contains("p99.9"), run.out());
        final String json = Files.readString(report);
        assertTrue(json.contains("\"in\" : 2000"), json);
        assertEquals(2000, Files.readAllLines(records).size());
        assertTrue(Files.size(state) > 0);
        assertTrue(Files.size(out) > 24, "a pcap header and packets");
    }

    @Test
    void shouldGiveTheSameRecordsWithTheOracleAndTheEngine() throws IOException
    {
        final Path serial = dir.resolve("serial.txt");
        final Path engine = dir.resolve("engine.txt");
        assertEquals(0, Captured.run("run", "--generate", "packets=3000,new_conn_ratio=0.4", "--no-progress",
            "--executor", "serial", "--records", serial.toString()).status());
        assertEquals(0, Captured.run("run", "--generate", "packets=3000,new_conn_ratio=0.4", "--no-progress",
            "--executor", "tpg", "--threads", "2", "--batch", "100", "--records", engine.toString()).status());
        assertEquals(Files.readAllLines(serial), Files.readAllLines(engine));
    }

    @Test
    void shouldWarmUpOnASeparateEngineWithoutChangingTheRunsOutputs() throws IOException
    {
        final Path coldRecords = dir.resolve("cold.txt");
        final Path coldState = dir.resolve("cold-state.txt");
        final Path warmRecords = dir.resolve("warm.txt");
        final Path warmState = dir.resolve("warm-state.txt");
        final Path warmReport = dir.resolve("warm.json");
        assertEquals(0, Captured.run("run", "--generate", "packets=3000,new_conn_ratio=0.3,seed=11", "--no-progress",
            "--threads", "2", "--records", coldRecords.toString(), "--state", coldState.toString()).status());
        final Captured warm = Captured.run("run", "--generate", "packets=3000,new_conn_ratio=0.3,seed=11", "--no-progress",
            "--threads", "2", "--warmup", "2000", "--records", warmRecords.toString(), "--state", warmState.toString(),
            "--report", warmReport.toString());

        assertEquals(0, warm.status(), warm.err());
        assertEquals(Files.readAllLines(coldRecords), Files.readAllLines(warmRecords), "records");
        assertEquals(Files.readString(coldState), Files.readString(warmState), "final state");
        assertTrue(warm.out().contains("warm-up") && warm.out().contains("2,000 packets"), warm.out());
        final String json = Files.readString(warmReport);
        assertTrue(json.contains("\"warm_up\"") && json.contains("\"in\" : 3000"), json);
    }

    @Test
    void shouldReportTheWarmUpPacketsItRanWhenTheTrafficIsShorter()
    {
        final Captured warm = Captured.run("run", "--generate", "packets=500", "--no-progress", "--warmup", "10000");
        assertEquals(0, warm.status(), warm.err());
        assertTrue(warm.out().contains("warm-up              500 packets in"), warm.out());
    }

    @Test
    void shouldRejectAWarmUpItCannotRun()
    {
        final Captured negative = Captured.run("run", "--warmup", "-5", "--no-progress");
        assertEquals(2, negative.status());
        assertTrue(negative.err().contains("--warmup must be >= 0"), negative.err());
        final Captured port = Captured.run("run", "--warmup", "10", "--dpdk", "--no-huge --vdev=net_null0", "--no-progress");
        assertEquals(2, port.status());
        assertTrue(port.err().contains("--warmup cannot be used with --dpdk"), port.err());
    }

    @Test
    void shouldRejectARateItCannotPaceWithAFix()
    {
        for (final String bad : new String[] {"0", "-5", "fast", "NaN", "1e999"})
        {
            final Captured run = Captured.run("run", "--generate", "packets=10", "--no-progress", "--rate", bad);
            assertEquals(2, run.status(), bad);
            assertTrue(run.err().contains("--rate") && run.err().contains("fix:"), bad + ": " + run.err());
        }
        final Captured original = Captured.run("run", "--generate", "packets=10", "--no-progress", "--rate", "original");
        assertEquals(2, original.status());
        assertTrue(original.err().contains("the traffic is generated"), original.err());
        final Captured port = Captured.run("run", "--rate", "1000", "--dpdk", "--no-huge --vdev=net_null0", "--no-progress");
        assertEquals(2, port.status());
        assertTrue(port.err().contains("--rate cannot be used with --dpdk"), port.err());
        final Captured ring = Captured.run("run", "--generate", "packets=10", "--no-progress", "--rate", "1000", "--rx-ring", "1000");
        assertEquals(2, ring.status());
        assertTrue(ring.err().contains("--rx-ring must be a power of two"), ring.err());
    }

    @Test
    void shouldReplayACaptureAtItsOwnTimingAndSayHowItWasPaced() throws IOException
    {
        final Path capture = dir.resolve("slow.pcap");
        // the generator spaces its packets 1 us apart: 300 packets replay in about 0.3 ms
        assertEquals(0, Captured.run("run", "--generate", "packets=300,seed=3", "--no-progress", "--executor", "serial",
            "--out", capture.toString()).status());
        final Captured run = Captured.run("run", "--pcap", capture.toString(), "--no-progress", "--rate", "original");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("paced") && run.out().contains("original through a 1,024-slot receive ring"), run.out());
        assertTrue(run.out().contains("rx missed"), run.out());
    }

    @Test
    void shouldVerifySeveralSeedsAndExitZeroWhenEquivalent()
    {
        final Captured verify = Captured.run("verify", Path.of("..", "chains", "lb.yaml").toString(),
            "--generate", "packets=2000", "--seeds", "2", "--threads", "2");
        assertEquals(0, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("2 of 2 checks equivalent"), verify.out());
    }

    @Test
    void shouldVerifyEveryStrategyInOneCommand()
    {
        final Captured verify = Captured.run("verify", "--generate", "packets=1500,new_conn_ratio=0.3", "--all-strategies",
            "--threads", "2", "--batch", "128");
        assertEquals(0, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("13 of 13 checks equivalent"), verify.out());
        assertTrue(verify.out().contains("random/group/lazy"), verify.out());
        assertTrue(verify.out().contains("tpg adaptive"), verify.out());
    }

    @Test
    void shouldRejectAnUnknownStrategyListingTheValidOnes()
    {
        final Captured run = Captured.run("run", "--strategy", "sideways/op/eager", "--generate", "packets=10", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("dfs/group/lazy"), run.err());
    }

    @Test
    void shouldNameTheExecutorKindsInLowerCaseInHelpAndErrors()
    {
        final Captured help = Captured.run("run", "--help");
        assertTrue(help.out().contains("Executor: tpg, serial (default: tpg)"), help.out());
        final Captured run = Captured.run("run", "--executor", "TPG", "--generate", "packets=10", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("expected one of [tpg, serial] (case-sensitive) but was 'TPG'"), run.err());
    }

    @Test
    void shouldShowTheSchedulerDecisionsInTheReport()
    {
        final Captured run = Captured.run("run", "--generate", "packets=3000", "--strategy", "adaptive", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("scheduler"), run.out());
        assertTrue(run.out().contains("decisions"), run.out());
        assertTrue(run.out().contains("time ns/packet"), run.out());
    }

    @Test
    void shouldRejectAChainWithErrorsWithFileLineAndColumn() throws IOException
    {
        final Path chain = dir.resolve("bad.yaml");
        Files.writeString(chain, String.join("\n", List.of(
            "name: bad",
            "vnfs:",
            "  - name: x",
            "    type: natt",
            "")));
        final Captured validate = Captured.run("validate", chain.toString());
        assertEquals(2, validate.status());
        assertTrue(validate.err().contains("bad.yaml:4:11"), validate.err());
        assertTrue(validate.err().contains("nat"), "suggests the closest type: " + validate.err());
    }

    @Test
    void shouldReportAnUnreadableCaptureWithFileAndOffset() throws IOException
    {
        final Path junk = dir.resolve("junk.pcap");
        Files.write(junk, "this is not a capture".getBytes(StandardCharsets.US_ASCII));
        final Captured run = Captured.run("run", "--pcap", junk.toString(), "--no-progress");
        assertEquals(1, run.status());
        assertTrue(run.err().contains("junk.pcap: byte 0"), run.err());
    }

    @Test
    void shouldRejectBadGeneratorParametersAsBadInput()
    {
        final Captured run = Captured.run("run", "--generate", "pakets=10", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("pakets"), run.err());
    }

    @Test
    void shouldOverrideTheChainsGeneratorWithAPortListAndKeepItsOtherParameters()
    {
        final Captured run = Captured.run("run", "--generate", "packets=500,dst_ports=22,21,seed=7", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("generator packets=500,flows=10000,"), run.out());
        assertTrue(run.out().contains(",dst_ports=22,21,fin_ratio=") && run.out().contains(",seed=7"), run.out());
    }

    @Test
    void shouldRejectAGenerateItemThatIsNotKeyValue()
    {
        final Captured run = Captured.run("run", "--generate", "packets=5,443", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("--generate expects key=value pairs separated by commas, got '443'"), run.err());
    }

    @Test
    void shouldListTheBuiltInVnfTypes()
    {
        final Captured vnfs = Captured.run("vnfs");
        assertEquals(0, vnfs.status());
        for (final String type : List.of("nat", "load-balancer", "trojan-detector", "firewall", "port-scan-detector", "flow-monitor"))
        {
            assertTrue(vnfs.out().contains(type), type);
        }
    }
}
