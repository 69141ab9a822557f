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
