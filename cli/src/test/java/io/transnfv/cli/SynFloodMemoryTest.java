package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.transnfv.engine.source.Generator;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A SYN flood (every packet a new connection, sources spread over 16 M addresses) through each
 * bundled chain in a JVM of 256 MiB: the run ends normally, its tables stop at their capacity
 * (the shared default, a quarter of the heap, plus one check period's inserts) and refuse the
 * rest as counted {@code state-full} drops, never an {@code OutOfMemoryError}.
 *
 * <p>What the flood holds is counted, not assumed: the generator the run describes in its report
 * is run again here, and the distinct 5-tuples and source addresses of its packets are counted
 * exactly (a primitive hash set of packed 5-tuples, a bitmap of the 2^24 client addresses). The
 * generator cycles source ports and draws clients at random, so two connections may share a
 * 5-tuple: the count, not the packet count, is what is asserted. The default suite floods
 * 1.5 M packets (at least 1.49 M distinct 5-tuples, 1 M distinct sources); {@code -Pstress}
 * floods 10.1 M through every chain (at least 10 M distinct 5-tuples, 1 M distinct sources).
 */
class SynFloodMemoryTest
{
    private static final int ETHERNET = 14;
    private static final int CLIENT_BASE = 0x0A000001;
    private static final int SERVER_BASE = 0xAC100001;
    private static final String FLOOD = "new_conn_ratio=1.0,flows=1000000,hosts=16000000,seed=5,packets=";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"lb.yaml", "fw-portscan-monitor.yaml", "nat-lb-td.yaml"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRefuseNewFlowsAtCapacityInsteadOfRunningOutOfMemory(final String chain) throws Exception
    {
        flood(chain, 1_500_000, 1_490_000);
    }

    @Tag("stress")
    @ParameterizedTest
    @ValueSource(strings = {"lb.yaml", "fw-portscan-monitor.yaml", "nat-lb-td.yaml"})
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldSurviveTenMillionNewFlowsInAQuarterGibibyteHeap(final String chain) throws Exception
    {
        flood(chain, 10_100_000, 10_000_000);
    }

    private void flood(final String chain, final long packets, final long distinctTuples) throws IOException, InterruptedException
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
        final FloodCount sent = FloodCount.of(json.path("source").asText());
        assertEquals(packets, sent.packets);
        assertTrue(sent.tuples >= distinctTuples, () -> sent.tuples + " distinct 5-tuples in the flood, fewer than " + distinctTuples);
        assertTrue(sent.sources >= 1_000_000, () -> sent.sources + " distinct source addresses in the flood, fewer than 1 M");
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

    @ParameterizedTest
    @ValueSource(ints = {1, 50, 5_000})
    void shouldCountTheDistinctFiveTuplesAndSourcesOfAGeneratorExactly(final int hosts) throws IOException
    {
        // a new connection on every packet from few hosts to one server and port: the source port
        // cycles through 64,512 values, so 100,000 connections of one host hold 64,512 5-tuples
        final String spec = "packets=100000,flows=1000,new_conn_ratio=1.0,tcp_ratio=1.0,hosts=" + hosts + ",servers=1,dst_ports=80,seed=3";
        final FloodCount count = FloodCount.of("generator " + GeneratorConfig.parse(spec).describe());
        assertEquals(100_000, count.packets);
        assertEquals(hosts, count.sources, "every host drawn at least once");
        if (hosts == 1)
        {
            assertEquals(64_512, count.tuples);
        }
        else
        {
            assertTrue(count.tuples > 64_512 && count.tuples <= 100_000, "tuples " + count.tuples);
        }
    }

    /** The packets, distinct 5-tuples and distinct source addresses of the generator a report describes, counted exactly. */
    private static final class FloodCount
    {
        long packets;
        long tuples;
        long sources;

        static FloodCount of(final String source) throws IOException
        {
            assertTrue(source.startsWith("generator "), source);
            final GeneratorConfig config = GeneratorConfig.parse(source.substring("generator ".length()));
            for (final String key : GeneratorConfig.KEYS)
            {
                // a parameter at its default may go unsaid only if the description always says it when it is not
                assertTrue(source.contains(key + "=") || GeneratorConfig.OPTIONAL_KEYS.contains(key),
                    () -> "the report describes the generator completely: no " + key + " in " + source);
            }
            assertEquals(source.substring("generator ".length()), config.describe(), "the description parses back to itself");
            final FloodCount count = new FloodCount();
            final LongHashSet tuples = new LongHashSet(config.packets());
            final BitSet clients = new BitSet(1 << 24);
            try (Generator generator = new Generator(config))
            {
                final PacketBuffer buffer = new PacketBuffer();
                while (generator.next(buffer))
                {
                    final ByteBuffer frame = ByteBuffer.wrap(buffer.data(), 0, buffer.length());
                    final int protocol = frame.get(ETHERNET + 9) & 0xff;
                    final int client = frame.getInt(ETHERNET + 12) - CLIENT_BASE;
                    final int server = frame.getInt(ETHERNET + 16) - SERVER_BASE;
                    final int sourcePort = frame.getShort(ETHERNET + 20) & 0xffff;
                    final int destinationPort = frame.getShort(ETHERNET + 22) & 0xffff;
                    assertTrue(client >= 0 && client < 1 << 24 && server >= 0 && server < 1 << 7 && sourcePort != 0
                        && (protocol == 6 || protocol == 17), "a generated 5-tuple packs into 64 bits");
                    // client 24 bits, server 7, ports 16 + 16, TCP or UDP 1: 64 bits, never 0 (source ports start at 1024)
                    tuples.add((long)client << 40 | (long)server << 33 | (long)sourcePort << 17 | (long)destinationPort << 1
                        | (protocol == 6 ? 1 : 0));
                    clients.set(client);
                    count.packets++;
                }
            }
            count.tuples = tuples.size;
            count.sources = clients.cardinality();
            return count;
        }
    }

    /** An open-addressing set of non-zero longs, sized once. */
    private static final class LongHashSet
    {
        private final long[] slots;
        private final int mask;
        long size;

        LongHashSet(final long expected)
        {
            final int capacity = Integer.highestOneBit((int)Math.min(1 << 30, expected * 3 / 2)) << 1;
            slots = new long[capacity];
            mask = capacity - 1;
        }

        void add(final long value)
        {
            int i = (int)(mix(value) & mask);
            while (slots[i] != 0)
            {
                if (slots[i] == value)
                {
                    return;
                }
                i = (i + 1) & mask;
            }
            slots[i] = value;
            size++;
        }

        private static long mix(final long value)
        {
            long z = value * 0x9E3779B97F4A7C15L;
            return z ^ (z >>> 29);
        }
    }
}
