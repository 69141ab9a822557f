package io.transnfv.cli.http;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A real scrape passes Prometheus's own checker, {@code promtool check metrics} (Debian's
 * {@code prometheus} package, which {@code ./transnfv} installs when run as root): the format
 * parses and the names follow the conventions its linter knows (units, {@code _total}).
 */
class PromtoolCheckTest
{
    /**
     * System property: {@code false} lets this test skip when promtool is missing; unset (the
     * default, and CI) makes it fail, as the DPDK tests do without libdpdk.
     */
    static final String REQUIRED_PROPERTY = "transnfv.promtool.required";

    @Test
    @Timeout(120)
    void shouldPassPromtoolCheckMetricsOnAScrapeOfEveryBundledChain() throws Exception
    {
        final Path promtool = promtool();
        for (final String name : ChainLoader.BUNDLED)
        {
            final ChainSpec bundled = new ChainLoader().loadBundled(name);
            final ChainSpec chain = bundled.withSettings(bundled.settings().withTraffic(
                TrafficSpec.generate(GeneratorConfig.builder().set("packets", "5000").build())));
            for (final ChainExecutor executor : List.of(ControlServerTest.tpgExecutor(chain), new SerialChainExecutor(chain)))
            {
                final List<String> tables = new ArrayList<>();
                for (int t = 0; t < executor.runtime().catalog().size(); t++)
                {
                    tables.add(executor.runtime().catalog().qualifiedName(t));
                }
                try (executor;
                     ControlServer server = ControlServer.start(new HttpAddress(HttpAddress.LOOPBACK, 0),
                         new RunView(name, Map.of(), executor, 5000, tables), new PrintStream(OutputStream.nullOutputStream()));
                     PacketSource source = PacketSources.open(chain.settings().traffic()))
                {
                    executor.run(source, null);
                    final HttpResponse<String> scrape = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, scrape.statusCode());
                    assertTrue(scrape.body().contains("transnfv_packets_finished_total 5000"), scrape.body());
                    check(promtool, scrape.body(), name + " on " + executor.describe());
                }
            }
        }
    }

    private static void check(final Path promtool, final String exposition, final String what)
        throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream in = process.getOutputStream())
        {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        final ByteArrayOutputStream said = new ByteArrayOutputStream();
        process.getInputStream().transferTo(said);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
        final String output = said.toString(StandardCharsets.UTF_8);
        // promtool exits 0 with nothing to say when the exposition is valid and lints clean
        assertEquals(0, process.exitValue(), () -> what + ": promtool check metrics:\n" + output);
        assertEquals("", output.trim(), () -> what + ": promtool check metrics:\n" + output);
    }

    private static Path promtool()
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(":"))
        {
            final Path candidate = Path.of(dir.isEmpty() ? "." : dir, "promtool");
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        final String why = "promtool not found on PATH (Debian: apt-get install prometheus; ./transnfv installs it when run as root)";
        if (!"false".equals(System.getProperty(REQUIRED_PROPERTY)))
        {
            fail(why + ". This test is required (" + REQUIRED_PROPERTY + " is not false, as in CI); to run the other tests"
                + " without it: ./transnfv test -D" + REQUIRED_PROPERTY + "=false");
        }
        abort(why + " (skipped: " + REQUIRED_PROPERTY + "=false)");
        return null;
    }
}
