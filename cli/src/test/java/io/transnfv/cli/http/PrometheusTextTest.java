package io.transnfv.cli.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketSource;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The renderer that encodes its series once writes, scrape after scrape into the buffer it keeps,
 * exactly what the plain one-string-per-series rendering ({@link PlainExposition}) writes: on a
 * real run's figures, on the empty figures before the first packet, and on latencies placed at and
 * around every bucket's bound; and it allocates a small fraction of the plain rendering's bytes.
 */
class PrometheusTextTest
{
    private static final long PACKETS = 20_000;
    /** The JVM's own figures move between two renders (memory in use, uptime): compared by series, not value. */
    private static final Pattern JVM_VALUE = Pattern.compile("^((?:jvm_|process_)[^ ]* ).*$", Pattern.MULTILINE);

    private static ChainExecutor executor;
    private static RunView view;

    @BeforeAll
    static void runTheChain() throws Exception
    {
        final ChainSpec chain = ControlServerTest.chain(PACKETS);
        executor = ControlServerTest.tpgExecutor(chain);
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            executor.run(source, null);
        }
        final List<String> tables = new ArrayList<>();
        for (int t = 0; t < executor.runtime().catalog().size(); t++)
        {
            tables.add(executor.runtime().catalog().qualifiedName(t));
        }
        view = new RunView("nat-lb-td", Map.of("kind", "tpg"), executor, PACKETS, tables);
    }

    @AfterAll
    static void closeTheEngine()
    {
        executor.close();
    }

    @Test
    void shouldWriteWhatThePlainRenderingWritesForARunsFiguresAndAgainForTheEmptyOnesInTheSameBuffer()
    {
        final PrometheusText metrics = new PrometheusText(view);
        final RunSnapshot last = executor.snapshots().orElseThrow().latest();
        assertTrue(last.last() && last.stats().packetsFinished() == PACKETS, "the run's final figures are published");
        assertTrue(last.stats().alertsTotal() > 0 && last.stats().latencyNs().getTotalCount() > 0,
            "alerts and latencies are there to compare");
        final RunSnapshot empty = RunSnapshot.empty(new RunStats(executor.runtime()));
        // the final figures, then the shorter empty ones over them, then the final ones again
        for (final RunSnapshot snapshot : List.of(last, empty, last))
        {
            final long nowNs = snapshot.takenNs() + 1_234_567;
            final Optional<long[]> entries = executor.liveEntries();
            final String expected = PlainExposition.format(view, snapshot, entries, nowNs);
            final String rendered = metrics.render(snapshot, entries, nowNs).toString();
            assertEquals(withoutJvmValues(expected), withoutJvmValues(rendered));
        }
    }

    @Test
    void shouldCountLatenciesAtAndAroundEveryBucketBoundAsThePlainRenderingDoes()
    {
        final Histogram shape = new RunStats(executor.runtime()).latencyNs();
        final long[] boundsNs = {1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000,
            5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000, 1_000_000_000,
            2_500_000_000L, 5_000_000_000L, 10_000_000_000L};
        final RunStats edges = new RunStats(executor.runtime());
        edges.recordLatencyNs(0);
        edges.recordLatencyNs(1);
        for (final long boundNs : boundsNs)
        {
            // the bound, its neighbours, and both ends of the sub-buckets around it
            for (final long ns : new long[] {boundNs - 1, boundNs, boundNs + 1, shape.lowestEquivalentValue(boundNs),
                shape.highestEquivalentValue(boundNs), shape.highestEquivalentValue(boundNs) + 1,
                shape.lowestEquivalentValue(boundNs) - 1})
            {
                edges.recordLatencyNs(ns);
            }
        }
        edges.recordLatencyNs(60_000_000_000L);
        final RunStats spread = new RunStats(executor.runtime());
        final Random random = new Random(17);
        for (int i = 0; i < 50_000; i++)
        {
            // log-uniform from 1 ns to about 17 s
            spread.recordLatencyNs((long)Math.pow(2, random.nextDouble() * 34));
        }
        final RunStats narrow = new RunStats(executor.runtime());
        for (int i = 0; i < 1_000; i++)
        {
            narrow.recordLatencyNs(20_000 + random.nextInt(3_000));
        }
        final PrometheusText metrics = new PrometheusText(view);
        for (final RunStats stats : List.of(edges, spread, narrow))
        {
            final RunSnapshot snapshot = new RunSnapshot(0, false, stats, 0, new long[0], new long[0]);
            final String expected = latencyLines(PlainExposition.format(view, snapshot, Optional.empty(), 0));
            assertTrue(expected.contains("transnfv_packet_latency_seconds_count " + stats.latencyNs().getTotalCount() + "\n"),
                expected);
            assertEquals(expected, latencyLines(metrics.render(snapshot, Optional.empty(), 0).toString()));
        }
    }

    @Test
    void shouldHandTheRenderToNettyAsTheSameBytes()
    {
        final PrometheusText metrics = new PrometheusText(view);
        final RunSnapshot last = executor.snapshots().orElseThrow().latest();
        final String text = metrics.render(last, executor.liveEntries(), last.takenNs()).toString();
        final ByteBuf buffer = metrics.copyInto(UnpooledByteBufAllocator.DEFAULT);
        try
        {
            assertEquals(text, buffer.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            buffer.release();
        }
    }

    /**
     * What a scrape allocates, counted by the JVM for this thread over many renders: the series'
     * names and labels are not built again, and the text is written into the kept buffer. The
     * plain rendering allocates several times the text's size per scrape; the bound is half the
     * text, far above what the management beans' answers and a few decimal numbers take.
     */
    @Test
    void shouldAllocateAFractionOfTheTextPerRender()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
            "this JVM counts no allocated bytes per thread");
        final PrometheusText metrics = new PrometheusText(view);
        final RunSnapshot last = executor.snapshots().orElseThrow().latest();
        final Optional<long[]> entries = executor.liveEntries();
        final int renders = 500;
        int textBytes = 0;
        for (int i = 0; i < renders; i++)
        {
            textBytes = metrics.render(last, entries, last.takenNs() + i).toString().length();
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < renders; i++)
        {
            metrics.render(last, entries, last.takenNs() + i);
        }
        final long perRender = (threads.getCurrentThreadAllocatedBytes() - before) / renders;
        final long before2 = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < renders; i++)
        {
            PlainExposition.format(view, last, entries, last.takenNs() + i);
        }
        final long plainPerRender = (threads.getCurrentThreadAllocatedBytes() - before2) / renders;
        assertTrue(plainPerRender > textBytes, "the plain rendering allocates at least its text: " + plainPerRender);
        assertTrue(perRender < textBytes / 2, "a render allocated " + perRender + " bytes for a text of " + textBytes
            + " bytes (the plain rendering: " + plainPerRender + ")");
    }

    private static String withoutJvmValues(final String exposition)
    {
        return JVM_VALUE.matcher(exposition).replaceAll("$1<value>");
    }

    private static String latencyLines(final String exposition)
    {
        final StringBuilder lines = new StringBuilder();
        for (final String line : exposition.split("\n"))
        {
            if (line.contains("transnfv_packet_latency"))
            {
                lines.append(line).append('\n');
            }
        }
        return lines.toString();
    }
}
