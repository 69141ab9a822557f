package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kill-and-resume harness: {@code transnfv run} with checkpoints, in its own JVM, is killed
 * with SIGKILL at random points and resumed, and the resumed run may be killed again; every time,
 * the final state, the output pcap and the records equal the uninterrupted run's, byte for byte,
 * and so does the report's {@code checkers} section (the default chain checks its invariants every
 * 8 batches here, so the checks before each cut must travel with the checkpoints).
 * {@code transnfv.kill.resume.kills} kills (20 by default, 100 with {@code -Pstress}); the resume
 * times go to {@code target/kill-and-resume.txt}.
 */
class KillAndResumeTest
{
    private static final Pattern RESUMED = Pattern.compile("resumed from checkpoint (\\d+) at packet (\\d+) in ([0-9.]+) ms");

    @TempDir
    Path dir;

    private record Traffic(String name, List<String> args)
    {
    }

    private record Outcome(int status, String out)
    {
    }

    @Test
    void shouldEndWithTheUninterruptedRunsStateAndOutputsHoweverOftenTheRunIsKilled() throws Exception
    {
        final int kills = Integer.getInteger("transnfv.kill.resume.kills", 20);
        final Random random = new Random(20_261_124L);
        // the default chain, with its state checkers run every 8 batches of 64
        final Path checked = Files.writeString(dir.resolve("nat-lb-td-checked.yaml"),
            Files.readString(Path.of("..", "chains", "nat-lb-td.yaml")) + "  checkers: { every: 8 }\n");
        final List<Traffic> traffics = List.of(
            new Traffic("generated", List.of("--generate", "packets=40000,new_conn_ratio=0.3,seed=9", "--threads", "2",
                checked.toString())),
            new Traffic("pcap-loop", List.of("--pcap", trace("synscan.pcap").toString(), "--loop", "12", "--threads", "2",
                "--batch", "64", Path.of("..", "chains", "fw-portscan-monitor.yaml").toString())));
        final List<long[]> referenceWall = new ArrayList<>();
        for (final Traffic traffic : traffics)
        {
            final long startNs = System.nanoTime();
            final Outcome reference = run(traffic, traffic.name() + "-ref", List.of());
            assertEquals(0, reference.status(), reference.out());
            referenceWall.add(new long[] {(System.nanoTime() - startNs) / 1_000_000});
        }

        final ObjectMapper json = new ObjectMapper();
        assertTrue(json.readTree(dir.resolve("generated-ref.json").toFile()).path("checkers").path("checks").asLong() > 1,
            "the default chain's checkers ran during the run, not only at its end");
        int killed = 0;
        int resumes = 0;
        int fromCheckpoint = 0;
        final List<Double> resumeMs = new ArrayList<>();
        for (int round = 0; killed < kills; round++)
        {
            final int t = round % traffics.size();
            final Traffic traffic = traffics.get(t);
            final String name = traffic.name() + "-" + round;
            final Path checkpoints = dir.resolve(name + "-ckpt");
            final long wallMs = referenceWall.get(t)[0];
            List<String> mode = List.of("--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "4",
                "--checkpoint-full-every", "3");
            int killsThisRound = 0;
            while (true)
            {
                // the oracle resumes now and then: a checkpoint is the chain's, not the executor's
                final List<String> executor = round % 3 == 2 && killsThisRound > 0 ? List.of("--executor", "serial") : List.of();
                final List<String> args = new ArrayList<>(mode);
                args.addAll(executor);
                final Process process = start(traffic, name, args);
                final boolean killThisTime = killsThisRound == 0 || (killsThisRound < 3 && random.nextBoolean());
                if (killThisTime && !process.waitFor(wallMs / 3 + random.nextInt((int)Math.max(1, wallMs * 2 / 3)), TimeUnit.MILLISECONDS))
                {
                    process.destroyForcibly().waitFor();
                    killed++;
                    killsThisRound++;
                }
                else
                {
                    assertTrue(process.waitFor(10, TimeUnit.MINUTES), "a run that was not killed ends");
                    final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertEquals(0, process.exitValue(), out);
                    if (mode.get(0).equals("--resume"))
                    {
                        resumes++;
                        final Matcher m = RESUMED.matcher(out);
                        if (m.find())
                        {
                            fromCheckpoint++;
                            resumeMs.add(Double.parseDouble(m.group(3)));
                        }
                    }
                    break;
                }
                if (!Files.isDirectory(checkpoints))
                {
                    // killed before the run created its checkpoint directory: there is nothing to resume, start it again
                    continue;
                }
                mode = List.of("--resume", checkpoints.toString(), "--checkpoint-every", "4", "--checkpoint-full-every", "3");
            }
            for (final String file : new String[] {".pcap", ".records", ".state"})
            {
                assertArrayEquals(Files.readAllBytes(dir.resolve(traffic.name() + "-ref" + file)), Files.readAllBytes(dir.resolve(name + file)),
                    name + file + " after " + killsThisRound + " kills differs from the uninterrupted run's");
            }
            final JsonNode referenceCheckers = json.readTree(dir.resolve(traffic.name() + "-ref.json").toFile()).path("checkers");
            assertEquals(referenceCheckers, json.readTree(dir.resolve(name + ".json").toFile()).path("checkers"),
                name + ": the checkers' report after " + killsThisRound + " kills differs from the uninterrupted run's");
        }
        assertTrue(fromCheckpoint >= kills / 5, "a fair share of the runs resumed from a checkpoint: " + fromCheckpoint + " of " + resumes);
        final double[] sorted = resumeMs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final String summary = String.format("kill-and-resume: %d SIGKILLs, %d completed resumes, %d of them from a checkpoint;"
                + " resume time p50 %.1f ms, p99 %.1f ms, max %.1f ms (uninterrupted runs: %s ms)%n", killed, resumes, fromCheckpoint,
            percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1],
            Arrays.toString(referenceWall.stream().mapToLong(w -> w[0]).toArray()));
        Files.writeString(Path.of("target", "kill-and-resume.txt"), summary);
    }

    private static double percentile(final double[] sorted, final double p)
    {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int)Math.ceil(p * sorted.length) - 1)];
    }

    private Outcome run(final Traffic traffic, final String name, final List<String> extra) throws IOException, InterruptedException
    {
        final Process process = start(traffic, name, extra);
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Outcome(process.waitFor(), out);
    }

    private Process start(final Traffic traffic, final String name, final List<String> extra) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"), Transnfv.class.getName(), "run",
            "--no-progress", "--out", dir.resolve(name + ".pcap").toString(), "--records", dir.resolve(name + ".records").toString(),
            "--state", dir.resolve(name + ".state").toString(), "--report", dir.resolve(name + ".json").toString()));
        command.addAll(traffic.args());
        command.addAll(extra);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static Path trace(final String name) throws URISyntaxException
    {
        return Path.of(KillAndResumeTest.class.getResource("/traces/" + name).toURI());
    }
}
