package io.transnfv.cli;

import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.engine.chain.FragmentSettings;
import io.transnfv.engine.chain.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the commands take on their command line, and what they refuse instead of ignoring it. */
class CommandInputTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunValidateAndVerifyABundledChainByName()
    {
        final Captured run = Captured.run("run", "lb", "--generate", "packets=100", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("chain                lb "), run.out());
        final Captured validate = Captured.run("validate", "fw-portscan-monitor.yaml");
        assertEquals(0, validate.status(), validate.err());
        assertTrue(validate.out().contains("valid chain 'fw-portscan-monitor'"), validate.out());
        final Captured verify = Captured.run("verify", "lb", "--generate", "packets=200", "--threads", "2");
        assertEquals(0, verify.status(), verify.err());
    }

    @Test
    void shouldRefuseOutForVerifyWhichWritesNoCapture()
    {
        final Path out = dir.resolve("v.pcap");
        final Captured verify = Captured.run("verify", "--generate", "packets=100", "--out", out.toString());
        assertEquals(2, verify.status(), verify.out());
        assertTrue(verify.err().contains("--out"), verify.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void shouldBoundThreadsAsTheChainFileDoesWithAFix()
    {
        final Captured run = Captured.run("run", "--threads", "" + (RunSettings.MAX_EXECUTOR_THREADS + 1),
            "--generate", "packets=10", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("--threads must be in 0.." + RunSettings.MAX_EXECUTOR_THREADS) && run.err().contains("fix:"),
            run.err());
        final Captured verify = Captured.run("verify", "--threads", "-1", "--generate", "packets=10");
        assertEquals(2, verify.status());
        assertTrue(verify.err().contains("--threads must be in 0.."), verify.err());
    }

    @Test
    void shouldRefuseABatchWhosePacketBuffersCannotFitTheHeapBeforeAnyWork() throws IOException
    {
        final int tooLarge = (int)Math.min(Integer.MAX_VALUE, 3L * BatchMemory.largestBatch(
            FragmentSettings.defaults().maxHeld(), BatchMemory.bufferBytes(1500), Runtime.getRuntime().maxMemory()));
        final Path state = dir.resolve("state.txt");
        final Captured run = Captured.run("run", "--batch", Integer.toString(tooLarge), "--generate", "packets=10",
            "--state", state.toString(), "--no-progress");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("MiB of packet buffers") && run.err().contains("fix: lower the batch"), run.err());
        assertFalse(Files.exists(state), "nothing written");
        final Captured verify = Captured.run("verify", "--batch", Integer.toString(tooLarge), "--generate", "packets=10");
        assertEquals(2, verify.status(), verify.err());
        assertTrue(verify.err().contains("fix: lower the batch"), verify.err());

        final Path chain = dir.resolve("big-batch.yaml");
        // surefire runs in the module's directory
        Files.writeString(chain, Files.readString(Path.of("..", "chains", "lb.yaml"))
            .replace("transactions: 64", "transactions: " + tooLarge));
        final Captured validate = Captured.run("validate", chain.toString());
        assertEquals(2, validate.status(), validate.out() + validate.err());
        assertTrue(validate.err().contains("fix: lower the batch"), validate.err());
    }

    @Test
    void shouldWarnWhenThreadsExceedTheCores()
    {
        final int beyond = Runtime.getRuntime().availableProcessors() + 1;
        final Captured run = Captured.run("run", "--threads", "" + beyond, "--generate", "packets=50", "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.err().contains("warning: " + beyond + " executor threads on"), run.err());
    }

    @Test
    void shouldRefuseLoopWithGeneratedTraffic()
    {
        final Captured run = Captured.run("run", "--generate", "packets=10", "--loop", "3", "--no-progress");
        assertEquals(2, run.status(), run.out());
        assertTrue(run.err().contains("--loop 3 replays a capture, but the traffic is generated") && run.err().contains("fix:"),
            run.err());
    }

    @Test
    void shouldRefuseAGeneratorKeyGivenTwice()
    {
        final Captured run = Captured.run("run", "--generate", "packets=10,seed=3,packets=20", "--no-progress");
        assertEquals(2, run.status(), run.out());
        assertTrue(run.err().contains("'packets' is given twice") && run.err().contains("fix:"), run.err());
    }

    @Test
    void shouldSuggestTheClosestGeneratorKey()
    {
        final Captured run = Captured.run("run", "--generate", "new_con_ratio=0.2", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("did you mean 'new_conn_ratio'?") && run.err().contains("fix:"), run.err());
    }

    @Test
    void shouldNameTheRangeOfAnOutOfRangeGeneratorInteger()
    {
        final Captured run = Captured.run("run", "--generate", "flows=99999999999", "--no-progress");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("'flows': expected an integer in 1..16777216, got 99999999999"), run.err());
        assertTrue(run.err().contains("fix: give flows a value in that range"), run.err());
        final Captured tooLong = Captured.run("run", "--generate", "packets=99999999999999999999", "--no-progress");
        assertEquals(2, tooLong.status());
        assertTrue(tooLong.err().contains("'packets': expected an integer in 1..9223372036854775807")
            && tooLong.err().contains("fix: give packets a value in that range"), tooLong.err());
    }

    @Test
    void shouldSayAChainFileIsBinaryOrADirectoryInWords() throws IOException
    {
        final Path binary = Files.write(dir.resolve("binary.yaml"), new byte[] {(byte)0xff, (byte)0xfe, 0, 1, 2, (byte)0xc3});
        final Captured validate = Captured.run("validate", binary.toString());
        assertEquals(2, validate.status());
        assertTrue(validate.err().contains("not UTF-8 text") && validate.err().contains("fix:"), validate.err());
        assertFalse(validate.err().contains("Exception"), validate.err());
        final Captured directory = Captured.run("run", dir.toString(), "--no-progress");
        assertEquals(2, directory.status());
        assertTrue(directory.err().contains("is a directory") && directory.err().contains("fix:"), directory.err());
        assertFalse(directory.err().contains("IOException"), directory.err());
    }
}
