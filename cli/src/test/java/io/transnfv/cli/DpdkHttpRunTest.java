package io.transnfv.cli;

import io.transnfv.dpdk.Dpdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.transnfv.cli.TransnfvProcess.awaitUrl;
import static io.transnfv.cli.TransnfvProcess.start;
import static io.transnfv.cli.TransnfvProcess.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A DPDK run that never ends by itself ({@code --dpdk-idle 0s}) watched and stopped through the
 * control plane: the port's counters (testpmd's RX-packets, RX-missed, TX-packets...) are in
 * {@code /metrics} while the run goes on, and {@code POST /stop} ends it.
 */
class DpdkHttpRunTest
{
    /** The DPDK tests' switch ({@code false}: skip without DPDK; otherwise fail). */
    private static final String REQUIRED_PROPERTY = "transnfv.dpdk.required";
    /** Frames in the capture replayed through the pcap PMD. */
    private static final long FRAMES = 193;

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void shouldExportThePortsCountersLiveAndStopAnEndlessDpdkRun() throws Exception
    {
        final String unavailable = Dpdk.unavailableReason();
        if (unavailable != null)
        {
            if (!"false".equals(System.getProperty(REQUIRED_PROPERTY)))
            {
                fail("DPDK unavailable: " + unavailable + "; to run the other tests without it: ./transnfv test -D"
                    + REQUIRED_PROPERTY + "=false");
            }
            abort("DPDK unavailable: " + unavailable + " (skipped: " + REQUIRED_PROPERTY + "=false)");
        }
        final Path in = dir.resolve("in.pcap");
        Files.copy(Path.of("..", "engine", "src", "test", "resources", "traces", "http_ipv6.pcap"), in);
        final Process process = start(dir, List.of("run", "lb", "--dpdk", "--no-huge --no-pci -m 256 --no-shconf"
            + " --vdev=net_pcap0,rx_pcap=" + in + ",tx_pcap=" + dir.resolve("out.pcap"), "--dpdk-idle", "0s",
            "--http", "127.0.0.1:0", "--no-progress"));
        final Path err = dir.resolve("stderr");
        final String url = awaitUrl(process, err);
        final HttpClient client = HttpClient.newHttpClient();
        // the capture is through, the port stays open: the port's own counters come in while the run goes on
        String metrics;
        do
        {
            assertTrue(process.isAlive(), () -> text(err));
            metrics = client.send(HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        }
        // the port has received the whole capture and the engine has finished it (on a busy machine the engine
        // may lag the receive thread; a stop ends the input where the engine reads next)
        while (!metrics.contains("transnfv_dpdk_port_ipackets_total " + FRAMES + "\n")
            || !metrics.contains("transnfv_packets_finished_total " + FRAMES + "\n"));
        assertTrue(metrics.contains("transnfv_dpdk_rx_packets_total " + FRAMES + "\n"), metrics);
        assertTrue(metrics.contains("transnfv_dpdk_port_imissed_total 0\n"), metrics);
        assertTrue(metrics.contains("transnfv_run_finished 0\n"), metrics);
        assertTrue(metrics.contains("# TYPE transnfv_dpdk_tx_packets_total counter"), metrics);

        final HttpResponse<String> stop = client.send(HttpRequest.newBuilder(URI.create(url + "/stop"))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, stop.statusCode(), stop.body());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the run did not stop");
        assertEquals(143, process.exitValue(), () -> text(err));
        final String summary = text(dir.resolve("stdout"));
        assertTrue(summary.contains("packets in           " + FRAMES), summary);
        // testpmd's port statistics block, figures from the port itself
        assertTrue(summary.contains("\n  ######################## NIC statistics for port 0  ########################\n"), summary);
        assertTrue(summary.contains("\n  RX-packets: " + String.format("%-10d", FRAMES) + " RX-missed: 0          RX-bytes:  "
            + captureBytes(in) + "\n"), summary);
        assertTrue(summary.contains("\n  RX-errors: 0\n  RX-nombuf:  0         \n"), summary);
        final Matcher forwarded = Pattern.compile("forwarded +(\\d+)").matcher(summary);
        assertTrue(forwarded.find(), summary);
        assertTrue(Long.parseLong(forwarded.group(1)) > 0, summary);
        assertTrue(Pattern.compile("\n  TX-packets: " + forwarded.group(1) + " +TX-errors: 0 +TX-bytes:  [1-9]\\d*\n")
            .matcher(summary).find(), summary);
        assertTrue(summary.contains("\n  ####################################################################"
            + "########\n"), summary);
    }

    /** @return the bytes of every frame of a pcap file (what the pcap PMD counts as received bytes). */
    private static long captureBytes(final Path pcap) throws IOException
    {
        final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(pcap));
        file.order(file.getInt(0) == 0xa1b2c3d4 || file.getInt(0) == 0xa1b23c4d ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        long bytes = 0;
        for (int at = 24; at + 16 <= file.limit(); at += 16 + file.getInt(at + 8))
        {
            bytes += file.getInt(at + 8);
        }
        return bytes;
    }
}
