package io.transnfv.flink.job;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rescaling from savepoints: a run stopped with a savepoint at parallelism 2, resumed at 4,
 * stopped again and resumed at 1 commits the records and final state of the serial oracle over
 * the whole traffic, and the forwarded frames and counters of an uninterrupted run. The chain's
 * table is by-source-host (a trojan detector's progress of each host through its port pattern),
 * routed by source address, so the entries made before each stop move to the subtasks their
 * hosts go to after it, and an alert raised after a stop needs the progress made before it.
 */
class RescaleTest
{
    private static final String YAML = """
        name: trojan-by-host
        vnfs:
          - name: td
            type: trojan-detector
            params: { pattern: [22, 21, 6667], window: 60s }
            tables:
              progress: { distribution: by-source-host }
        settings:
          punctuation: { transactions: 128, interval: 1ms }
          executor_threads: 2
          traffic:
            generate: { packets: 1000, flows: 1500, hosts: 300, new_conn_ratio: 0.1, tcp_ratio: 1.0, dst_ports: "22,21,6667,80", seed: 1 }
        """;
    private static final long PACKETS = 24_000;
    private static final int BATCH_PACKETS = 200;
    private static final long FIRST_STOP = 7_000;
    private static final long SECOND_STOP = 15_000;
    private static final ChainSource CHAIN = () -> Chains.generated(new ChainLoader().parse(YAML, "fw-monitor.yaml"), PACKETS, 16);

    @TempDir
    static Path dir;

    private static FlinkRunResult rescaled;
    private static FlinkStop firstStop;
    private static FlinkStop secondStop;

    @BeforeAll
    static void runTwoToFourToOne() throws IOException
    {
        final Path out = dir.resolve("rescaled");
        final Path savepoints = dir.resolve("savepoints");
        firstStop = FlinkRunner.runUntilStop(CHAIN, EngineFactory.tpg(), out, settings(2), null, FIRST_STOP, savepoints);
        secondStop = FlinkRunner.runUntilStop(CHAIN, EngineFactory.tpg(), out, settings(4), firstStop, SECOND_STOP, savepoints);
        rescaled = FlinkRunner.resume(CHAIN, EngineFactory.tpg(), out, settings(1), secondStop);
    }

    @Test
    void shouldStopAtTheReadBatchOfThePacketsAskedAndResumeAtTheNewParallelism()
    {
        assertEquals(Partitioning.Routing.SOURCE_HOST, rescaled.partitioning().routing());
        assertTrue(rescaled.partitioning().independent());
        assertEquals(2, firstStop.parallelism());
        assertEquals(FIRST_STOP, firstStop.packets());
        assertEquals(4, secondStop.parallelism());
        assertEquals(SECOND_STOP, secondStop.packets());
        assertEquals(1, rescaled.parallelism());
        assertEquals(4, rescaled.resumed().fromParallelism());
        assertEquals(SECOND_STOP, rescaled.resumed().atPacket());
        assertTrue(rescaled.resumed().pauseMicros() > 0, "the pause is measured: " + rescaled.resumed());
        assertTrue(rescaled.facts().stream().anyMatch(f -> f.contains("parallelism 4 -> 1")), rescaled.facts().toString());
        // the last job read only the packets after the stop it resumed from: its processing rate is over those
        assertEquals(PACKETS - SECOND_STOP, rescaled.processing().packets(), rescaled.facts().toString());
    }

    @Test
    void shouldCommitTheOraclesRecordsAndFinalStateOverTheWholeTraffic() throws IOException
    {
        final Oracle whole = oracle(0);
        assertEquals(PACKETS, rescaled.unionRecords().size(), "every packet committed once");
        assertEquals(whole.records, rescaled.unionRecords(), "records: none lost, none duplicated, each as the oracle's");
        assertEquals(whole.sortedState(), rescaled.unionStateLinesSorted(), "final state");
    }

    @Test
    void shouldForwardTheFramesAndCountWhatAnUninterruptedRunDoes() throws IOException
    {
        final FlinkRunResult uninterrupted = FlinkRunner.run(CHAIN, EngineFactory.tpg(), dir.resolve("uninterrupted"), settings(1));
        assertArrayEquals(Files.readAllBytes(pcap(uninterrupted, "uninterrupted")), Files.readAllBytes(pcap(rescaled, "rescaled")),
            "forwarded frames");
        assertArrayEquals(uninterrupted.stats().counters(), rescaled.stats().counters(), "run counters");
        assertArrayEquals(uninterrupted.vnfCounters(0), rescaled.vnfCounters(0), "VNF counters");
        assertEquals(uninterrupted.unionStateLinesSorted(), rescaled.unionStateLinesSorted(), "final state");
    }

    /** The control: the comparison above sees state lost at a stop, so the runs' agreement is no accident. */
    @Test
    void shouldDifferFromAResumeThatStartedWithoutTheSavepointsState() throws IOException
    {
        final Oracle whole = oracle(0);
        final Oracle fresh = oracle(SECOND_STOP);
        assertNotEquals(whole.sortedState(), fresh.sortedState(), "the state made before the stop shows in the final state");
        final List<String> tail = whole.records.subList((int)SECOND_STOP, whole.records.size());
        assertEquals(tail.size(), fresh.records.size());
        assertNotEquals(tail, fresh.records, "the state made before the stop shows in the records after it");
    }

    private record Oracle(List<String> records, String state)
    {
        List<String> sortedState()
        {
            final List<String> lines = new ArrayList<>(state.isEmpty() ? List.of() : Arrays.asList(state.split("\n")));
            lines.sort(null);
            return lines;
        }
    }

    /** The serial oracle over the traffic from packet {@code from} on, with fresh state. */
    private static Oracle oracle(final long from) throws IOException
    {
        final ChainSpec chain = CHAIN.load();
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final PacketBuffer skipped = new PacketBuffer(BatchMemory.bufferBytes(source.maxFrameBytes()));
            for (long i = 0; i < from; i++)
            {
                assertTrue(source.next(skipped));
            }
            final StringBuilder line = new StringBuilder(256);
            oracle.run(source, (record, buffer, packet) ->
            {
                line.setLength(0);
                records.add(record.format(line, oracle.runtime(), packet).toString());
            });
            final StringWriter state = new StringWriter();
            oracle.writeState(state);
            return new Oracle(records, state.toString());
        }
    }

    private static FlinkSettings settings(final int parallelism)
    {
        return new FlinkSettings(parallelism, BATCH_PACKETS, 20, 0, io.transnfv.flink.operator.FailurePlan.NONE);
    }

    private static Path pcap(final FlinkRunResult result, final String name) throws IOException
    {
        final Path file = dir.resolve(name + ".pcap");
        result.writePcap(file);
        return file;
    }
}
