package io.transnfv.cli.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.GatedPacketSource;
import io.transnfv.engine.source.PacketSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The live page at {@code /} in a real browser: headless Chromium (Debian's {@code chromium})
 * loads it once from a running engine, and the test reads the rendered DOM through the DevTools
 * protocol while the page stays open. The run is held at chosen packets, so what the page must
 * show is known exactly; when the run moves on, the same page (never reloaded, never polling)
 * shows the new figures, which only the server-sent events of {@code /events} can bring.
 */
class LivePageTest
{
    /** System property: {@code false} lets this test skip when Chromium is missing; unset, it fails. */
    static final String REQUIRED_PROPERTY = "transnfv.chromium.required";

    private static final long PACKETS = 60_000;
    private static final Pattern DECISION = Pattern.compile("<td>(bfs|dfs|random)/(op|group)/(eager|lazy)</td><td>[0-9,]+</td>");
    private static final String PACKETS_TEXT = "document.getElementById('packets').textContent";

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void shouldShowTheRunsFiguresAndFollowThemThroughServerSentEvents() throws Exception
    {
        final Path chromium = chromium();
        final ChainSpec chain = ControlServerTest.chain(PACKETS);
        final ChainExecutor executor = ControlServerTest.tpgExecutor(chain);
        final AtomicLong limit = new AtomicLong(10_000);
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final List<String> tables = new ArrayList<>();
        for (int t = 0; t < executor.runtime().catalog().size(); t++)
        {
            tables.add(executor.runtime().catalog().qualifiedName(t));
        }
        try (executor;
             ControlServer server = ControlServer.start(new HttpAddress(HttpAddress.LOOPBACK, 0),
                 new RunView("nat-lb-td", Map.of("kind", "tpg", "description", "tpg adaptive"), executor, PACKETS, tables),
                 new PrintStream(OutputStream.nullOutputStream())))
        {
            final Thread run = new Thread(() ->
            {
                try (PacketSource source = new GatedPacketSource(PacketSources.open(chain.settings().traffic()), limit::get))
                {
                    executor.run(source, null);
                }
                catch (final Throwable t)
                {
                    failed.set(t);
                }
            }, "run");
            run.start();

            awaitFinished(server.url(), 10_000);
            try (BrowserPage page = BrowserPage.open(chromium, dir, server.url() + "/"))
            {
                page.awaitText(PACKETS_TEXT, "10,000 / 60,000");
                final String first = page.evaluate("document.documentElement.outerHTML");
                assertTrue(first.contains("<span id=\"chain\">nat-lb-td</span>"), first);
                assertTrue(first.contains("<span id=\"run-state\">running</span>"), first);
                assertTrue(DECISION.matcher(first).find(), "the decisions table is filled: " + first);
                assertEquals(1, server.eventStreams(), "the page follows the run on one event stream");

                // the run moves on: the open page shows it, brought by the event stream alone
                limit.set(30_000);
                awaitFinished(server.url(), 30_000);
                page.awaitText(PACKETS_TEXT, "30,000 / 60,000");
                final String seen = page.evaluate("document.getElementById('updates').dataset.packetsSeen");
                final List<String> shown = List.of(seen.split(","));
                assertTrue(shown.contains("10000") && shown.indexOf("10000") < shown.indexOf("30000"), seen);

                limit.set(Long.MAX_VALUE);
                run.join();
                assertNull(failed.get());
                page.awaitText("document.getElementById('run-state').textContent", "finished");
                page.awaitText(PACKETS_TEXT, "60,000 / 60,000");
                // nothing was polled: every figure came from /events
                assertEquals("", page.evaluate("performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
                    + ".filter(p => p === '/status' || p === '/metrics').join(',')"));
                assertEquals("0", page.evaluate("document.getElementById('error').textContent.length.toString()"));
            }
        }
    }

    /** Waits until the engine has finished exactly {@code packets} (the source holds it there). */
    private static void awaitFinished(final String url, final long packets) throws Exception
    {
        final HttpClient client = HttpClient.newHttpClient();
        while (true)
        {
            final String status = client.send(HttpRequest.newBuilder(URI.create(url + "/status")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            if (status.contains("\"packets_finished\" : " + packets + ","))
            {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * One page open in headless Chromium, read through the DevTools protocol (a WebSocket the
     * browser opens on a port it picks): {@link #evaluate} runs an expression in the page.
     */
    private static final class BrowserPage implements AutoCloseable
    {
        private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");

        private final Process process;
        private final WebSocket socket;
        private final ObjectMapper json = new ObjectMapper();
        private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
        private final AtomicInteger ids = new AtomicInteger();

        private BrowserPage(final Process process, final WebSocket socket)
        {
            this.process = process;
            this.socket = socket;
        }

        static BrowserPage open(final Path chromium, final Path dir, final String url) throws Exception
        {
            final Process process = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--user-data-dir=" + dir.resolve("profile"), "--remote-debugging-port=0", url)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            process.getOutputStream().close();
            final BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
            String line;
            URI browser = null;
            while (browser == null && (line = err.readLine()) != null)
            {
                final Matcher m = LISTENING.matcher(line);
                if (m.find())
                {
                    browser = URI.create(m.group(1));
                }
            }
            if (browser == null)
            {
                process.destroy();
                throw new AssertionError("chromium ended without opening DevTools");
            }
            final Thread drain = new Thread(() ->
            {
                try
                {
                    err.transferTo(Writer.nullWriter());
                }
                catch (final IOException ignored)
                {
                    // the browser went away
                }
            }, "chromium-stderr");
            drain.setDaemon(true);
            drain.start();
            final HttpClient client = HttpClient.newHttpClient();
            final ObjectMapper json = new ObjectMapper();
            String target = null;
            while (target == null)
            {
                final JsonNode list = json.readTree(client.send(HttpRequest.newBuilder(URI.create("http://" + browser.getHost()
                    + ":" + browser.getPort() + "/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body());
                for (final JsonNode t : list)
                {
                    if ("page".equals(t.get("type").asText()) && t.get("url").asText().startsWith(url))
                    {
                        target = t.get("webSocketDebuggerUrl").asText();
                    }
                }
                Thread.onSpinWait();
            }
            final BrowserPage[] page = new BrowserPage[1];
            final StringBuilder partial = new StringBuilder();
            final WebSocket socket = client.newWebSocketBuilder().buildAsync(URI.create(target), new WebSocket.Listener()
            {
                @Override
                public CompletionStage<?> onText(final WebSocket ws, final CharSequence data, final boolean last)
                {
                    partial.append(data);
                    if (last)
                    {
                        page[0].reply(partial.toString());
                        partial.setLength(0);
                    }
                    ws.request(1);
                    return null;
                }
            }).get(60, TimeUnit.SECONDS);
            page[0] = new BrowserPage(process, socket);
            return page[0];
        }

        private void reply(final String message)
        {
            try
            {
                final JsonNode node = json.readTree(message);
                if (node.has("id"))
                {
                    final CompletableFuture<JsonNode> reply = replies.remove(node.get("id").asInt());
                    if (reply != null)
                    {
                        reply.complete(node);
                    }
                }
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }

        /** @return the value of {@code expression} in the page, as text ("" for undefined). */
        String evaluate(final String expression) throws Exception
        {
            final int id = ids.incrementAndGet();
            final CompletableFuture<JsonNode> reply = new CompletableFuture<>();
            replies.put(id, reply);
            final ObjectNode call = json.createObjectNode();
            call.put("id", id);
            call.put("method", "Runtime.evaluate");
            call.putObject("params").put("expression", expression).put("returnByValue", true);
            socket.sendText(json.writeValueAsString(call), true).get(60, TimeUnit.SECONDS);
            final JsonNode result = reply.get(60, TimeUnit.SECONDS).path("result").path("result");
            return result.has("value") ? result.get("value").asText() : "";
        }

        /** Waits (within the test's time-out) until {@code expression} reads {@code expected} in the page. */
        void awaitText(final String expression, final String expected) throws Exception
        {
            while (!expected.equals(evaluate(expression)))
            {
                Thread.sleep(50);
            }
        }

        @Override
        public void close()
        {
            socket.abort();
            process.destroy();
            try
            {
                process.waitFor(60, TimeUnit.SECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Path chromium()
    {
        for (final String name : List.of("chromium", "chromium-browser", "google-chrome"))
        {
            for (final String dir : System.getenv().getOrDefault("PATH", "").split(":"))
            {
                final Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate))
                {
                    return candidate;
                }
            }
        }
        final String why = "chromium not found on PATH (Debian: apt-get install chromium; ./transnfv installs it when run as root)";
        if (!"false".equals(System.getProperty(REQUIRED_PROPERTY)))
        {
            fail(why + ". This test is required (" + REQUIRED_PROPERTY + " is not false, as in CI); to run the other tests"
                + " without it: ./transnfv test -D" + REQUIRED_PROPERTY + "=false");
        }
        abort(why + " (skipped: " + REQUIRED_PROPERTY + "=false)");
        return null;
    }
}
