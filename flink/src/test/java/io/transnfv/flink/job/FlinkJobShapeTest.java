package io.transnfv.flink.job;

import io.transnfv.flink.EngineFactory;
import io.transnfv.flink.operator.PacketBatchSerializer;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a packet costs on Flink follows from the job's shape: how many tasks a batch crosses, with
 * which serializer, and whether chained operators copy it. These are checked on the job as
 * submitted, not timed.
 */
class FlinkJobShapeTest
{
    @TempDir
    Path dir;

    @Test
    void shouldChainTheReaderAndTheEngineIntoOneTaskAtParallelismOne() throws IOException
    {
        final JobGraph job = FlinkRunner.plan(Chains.bundled("lb", 5_000, 7), EngineFactory.tpg(), dir, FlinkSettings.of(1))
            .getJobGraph();

        assertEquals(1, job.getNumberOfVertices(), "one task: " + names(job));
        final String name = job.getVerticesAsArray()[0].getName();
        assertTrue(name.contains("read and route") && name.contains("transnfv engine"), name);
    }

    @Test
    void shouldRouteBatchesThroughTheNetworkAtParallelismTwo() throws IOException
    {
        final JobGraph job = FlinkRunner.plan(Chains.bundled("lb", 5_000, 7), EngineFactory.tpg(), dir, FlinkSettings.of(2))
            .getJobGraph();

        assertEquals(2, job.getNumberOfVertices(), "the reader's task, then the engines': " + names(job));
    }

    @Test
    void shouldMoveBatchesWithTheirOwnSerializerAndPassThemByReference() throws IOException
    {
        for (final int parallelism : new int[] {1, 2})
        {
            final StreamGraph graph = FlinkRunner.plan(Chains.bundled("lb", 5_000, 7), EngineFactory.tpg(), dir,
                FlinkSettings.of(parallelism));

            assertTrue(graph.getExecutionConfig().isObjectReuseEnabled(), "chained operators pass a batch on, uncopied");
            final StreamNode engine = node(graph, "transnfv engine");
            assertEquals(0, node(graph, "read and route").getBufferTimeout(), "a batch's last buffer leaves at once");
            assertSame(PacketBatchSerializer.INSTANCE, engine.getTypeSerializersIn()[0], "not Kryo, not a POJO serializer");
            assertSame(PacketBatchSerializer.INSTANCE, node(graph, "read and route").getTypeSerializerOut());
        }
    }

    private static StreamNode node(final StreamGraph graph, final String name)
    {
        return graph.getStreamNodes().stream().filter(n -> n.getOperatorName().equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("no operator " + name));
    }

    private static List<String> names(final JobGraph job)
    {
        final List<String> names = new ArrayList<>();
        for (final JobVertex vertex : job.getVertices())
        {
            names.add(vertex.getName());
        }
        return names;
    }
}
