package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.transnfv.cli.TransnfvProcess.awaitText;
import static io.transnfv.cli.TransnfvProcess.awaitUrl;
import static io.transnfv.cli.TransnfvProcess.start;
import static io.transnfv.cli.TransnfvProcess.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code transnfv run --http} and {@code --stats-interval} as a user runs them: the command
 * says where the control plane listens, answers there while the run goes on, prints its rate
 * line, and {@code POST /stop} ends the run as SIGTERM does (outputs complete, exit 143).
 */
class HttpRunCommandTest
{

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void shouldServeTheRunAndStopItGracefullyOnPostStop() throws Exception
    {
        final Path report = dir.resolve("report.json");
        final Process process = start(dir, List.of("run", "--http", "127.0.0.1:0", "--generate", "packets=200000000",
            "--stats-interval", "20ms", "--no-progress", "--report", report.toString()));
        final Path err = dir.resolve("stderr");
        final String url = awaitUrl(process, err);
        awaitText(process, err, "stats ");
        assertTrue(text(err).matches("(?s).*stats [0-9.]+s: packets [0-9,]+ \\([0-9,]+/s\\)  forwarded .*"), () -> text(err));

        final HttpClient client = HttpClient.newHttpClient();
        final HttpResponse<String> status = client.send(HttpRequest.newBuilder(URI.create(url + "/status")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, status.statusCode());
        final JsonNode body = new ObjectMapper().readTree(status.body());
        assertEquals("nat-lb-td", body.get("chain").asText());
        assertEquals("running", body.get("state").asText());
        assertEquals(200_000_000L, body.get("progress").get("packets_expected").asLong());
        final HttpResponse<String> metrics = client.send(HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("transnfv_run_finished 0"), metrics.body());

        final HttpResponse<String> stop = client.send(HttpRequest.newBuilder(URI.create(url + "/stop"))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, stop.statusCode(), stop.body());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the run did not stop");
        assertEquals(143, process.exitValue(), () -> text(err));
        assertTrue(text(err).contains("POST /stop: finishing the batch in flight"), () -> text(err));
        final JsonNode written = new ObjectMapper().readTree(report.toFile());
        assertEquals("terminate", written.get("stopped").get("cause").asText(), written::toPrettyString);
        assertTrue(written.get("stopped").get("message").asText().contains("POST /stop"), written::toPrettyString);
    }

    /**
     * A change made over {@code POST /params} is in the final checkpoint a stop takes, and the
     * resumed run starts with it: its report lists it, at the packet where the stopped run applied
     * it (a resume that did not carry it would list none, or fail to restore it).
     */
    @Test
    @Timeout(240)
    void shouldCarryAParameterChangeAcrossAStopAndAResume() throws Exception
    {
        final Path checkpoints = dir.resolve("ckpt");
        final List<String> run = List.of("run", "--http", "127.0.0.1:0", "--generate", "packets=200000000", "--no-progress",
            "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "1000000");
        final Process stopped = start(dir, run, "stopped");
        final String url = awaitUrl(stopped, dir.resolve("stopped.err"));
        final HttpClient client = HttpClient.newHttpClient();
        final HttpResponse<String> change = client.send(HttpRequest.newBuilder(URI.create(url + "/params/lb"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"candidates\": 1}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, change.statusCode(), change.body());
        final long atPacket = new ObjectMapper().readTree(change.body()).get("at_packet").asLong();
        client.send(HttpRequest.newBuilder(URI.create(url + "/stop")).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
        assertTrue(stopped.waitFor(120, TimeUnit.SECONDS), "the run did not stop");
        assertEquals(143, stopped.exitValue(), () -> text(dir.resolve("stopped.err")));
        assertTrue(text(dir.resolve("stopped.out")).contains("final checkpoint 1 taken at packet"), () -> text(dir.resolve("stopped.out")));

        final Path report = dir.resolve("resumed.json");
        final List<String> resume = new java.util.ArrayList<>(run.subList(0, run.size() - 4));
        resume.addAll(List.of("--resume", checkpoints.toString(), "--report", report.toString()));
        final Process resumed = start(dir, resume, "resumed");
        final String resumedUrl = awaitUrl(resumed, dir.resolve("resumed.err"));
        client.send(HttpRequest.newBuilder(URI.create(resumedUrl + "/stop")).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
        assertTrue(resumed.waitFor(120, TimeUnit.SECONDS), "the resumed run did not stop");
        assertEquals(143, resumed.exitValue(), () -> text(dir.resolve("resumed.err")));
        final JsonNode changes = new ObjectMapper().readTree(report.toFile()).get("param_changes");
        assertEquals(1, changes.size(), changes::toPrettyString);
        assertEquals("lb", changes.get(0).get("vnf").asText());
        assertEquals("candidates", changes.get(0).get("parameter").asText());
        assertEquals(1, changes.get(0).get("new_value").asInt());
        assertEquals(atPacket, changes.get(0).get("at_packet").asLong(), changes::toPrettyString);
    }

    @Test
    void shouldServeTheControlPlaneTheChainFileAsksFor() throws IOException
    {
        final Path chain = dir.resolve("watched.yaml");
        Files.writeString(chain, "name: watched\nvnfs:\n  - name: lb\n    type: load-balancer\nsettings:\n"
            + "  http: \"127.0.0.1:0\"\n  traffic: { generate: { packets: 1000 } }\n", StandardCharsets.UTF_8);
        final Captured run = Captured.run("run", chain.toString(), "--no-progress");
        assertEquals(0, run.status(), run.err());
        assertTrue(TransnfvProcess.CONTROL_PLANE_URL.matcher(run.err()).find(), run.err());
    }

    @Test
    void shouldRejectAnAddressItCannotListenOnBeforeRunning()
    {
        final Captured bad = Captured.run("run", "--http", "localhost:http", "--generate", "packets=10");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("--http: 'localhost:http' is not an address to listen on"), bad.err());
        assertTrue(bad.err().contains("fix:"), bad.err());
    }

    @Test
    void shouldSayWhichAddressIsTakenAndHowToPickAnother() throws IOException
    {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final Captured inUse = Captured.run("run", "--http", "127.0.0.1:" + taken.getLocalPort(), "--generate", "packets=10",
                "--no-progress");
            assertEquals(2, inUse.status(), inUse.err());
            assertTrue(inUse.err().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()), inUse.err());
            assertTrue(inUse.err().contains("fix: pick another port"), inUse.err());
        }
    }

    @Test
    void shouldRejectAStatsIntervalThatIsNotADuration()
    {
        final Captured bad = Captured.run("run", "--stats-interval", "often", "--generate", "packets=10");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("--stats-interval"), bad.err());
        final Captured tooShort = Captured.run("run", "--stats-interval", "10us", "--generate", "packets=10");
        assertEquals(2, tooShort.status(), tooShort.err());
        assertTrue(tooShort.err().contains("at least 1ms"), tooShort.err());
    }
}
