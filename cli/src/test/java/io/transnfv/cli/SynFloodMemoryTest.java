package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A SYN flood (every packet a new 5-tuple, sources spread over 16 M addresses) through each
 * bundled chain in a JVM of 256 MiB: the run ends normally, its tables stop at their capacity
 * (the shared default, a quarter of the heap, plus one check period's inserts) and refuse the
 * rest as counted {@code state-full} drops, never an {@code OutOfMemoryError}. The default suite
 * floods 1.5 M packets; {@code -Pstress} floods 10 M through every chain.
 */
class SynFloodMemoryTest
{
    private static final String FLOOD = "new_conn_ratio=1.0,flows=1000000,hosts=16000000,seed=5,packets=";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"lb.yaml", "fw-portscan-monitor.yaml", "nat-lb-td.yaml"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRefuseNewFlowsAtCapacityInsteadOfRunningOutOfMemory(final String chain) throws Exception
    {
        flood(chain, 1_500_000);
    }

    @Tag("stress")
    @ParameterizedTest
    @ValueSource(strings = {"lb.yaml", "fw-portscan-monitor.yaml", "nat-lb-td.yaml"})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldSurviveTenMillionNewFlowsInAQuarterGibibyteHeap(final String chain) throws Exception
    {
        flood(chain, 10_000_000);
    }

    private void flood(final String chain, final long packets) throws IOException, InterruptedException
    {
        final Path report = dir.resolve("report.json");
        final Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), Transnfv.class.getName(), "run", Path.of("..", "chains", chain).toString(),
            "--generate", FLOOD + packets, "--no-progress", "--report", report.toString()))
            .redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), out);
        assertFalse(out.contains("OutOfMemoryError"), out);

        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(packets, json.path("packets").path("in").asLong(), out);
        long refused = 0;
        for (final JsonNode drop : json.path("drops"))
        {
            if (drop.path("reason").asText().equals("state-full"))
            {
                refused += drop.path("packets").asLong();
            }
        }
        assertTrue(refused > packets / 2, () -> "most of the flood is refused at capacity: " + out);
        long shared = 0;
        long capacity = 0;
        for (final JsonNode table : json.path("state").path("tables"))
        {
            if (table.path("shared").asBoolean())
            {
                shared += table.path("entries").asLong();
                capacity = table.path("capacity").asLong();
                assertTrue(table.path("full").asBoolean(), () -> table + " is full at the end: " + out);
            }
        }
        final long limit = capacity + capacity / 8;
        final long held = shared;
        assertTrue(capacity > 0 && held <= limit, () -> held + " entries in the shared tables, over " + limit + ": " + out);
    }
}
