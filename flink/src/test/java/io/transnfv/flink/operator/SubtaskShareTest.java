package io.transnfv.flink.operator;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.control.FlowProbe;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.flink.route.PacketRouter;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Splitting the shares of a snapshot over another parallelism. The firewall's connections are
 * keyed by a hash of the connection (its biflow), which the router, keyed by the address pair,
 * cannot compute: the owners noted from the VNF's own key declarations are what lets each entry
 * follow its packets.
 */
class SubtaskShareTest
{
    private static final String FIREWALL = """
        name: fw
        vnfs:
          - name: fw
            type: firewall
            params: { internal_net: [10.0.0.0/8], default_action: allow, idle_timeout: 600s }
        """;
    private static final int OLD = 2;
    private static final int NEW = 3;

    /** One old subtask's entries as its snapshot would hold them, and which packet made each key. */
    private static final class Old
    {
        final EntryOwners owners;
        final TreeMap<Long, Long> connections = new TreeMap<>();

        Old(final ChainRuntime runtime, final PacketRouter router)
        {
            owners = new EntryOwners(runtime, router);
        }
    }

    @Test
    void shouldGiveEachEntryToTheSubtaskItsPacketsGoToAtTheNewParallelism() throws IOException
    {
        final ChainSpec chain = firewall(4_000);
        final ChainRuntime runtime = new ChainRuntime(chain);
        final Partitioning partitioning = Partitioning.of(runtime);
        assertEquals(Partitioning.Routing.HOST_PAIR, partitioning.routing());
        final int connections = runtime.catalog().find("fw", "connections");
        final PacketRouter before = new PacketRouter(partitioning.routing(), OLD);
        final PacketRouter after = new PacketRouter(partitioning.routing(), NEW);
        final Old[] old = {new Old(new ChainRuntime(chain), before), new Old(new ChainRuntime(chain), before)};
        final Map<Long, Integer> expectedOwner = new HashMap<>();
        int moved = 0;
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final PacketBuffer buffer = new PacketBuffer(BatchMemory.bufferBytes(source.maxFrameBytes()));
            final PacketFlyweight packet = new PacketFlyweight();
            while (source.next(buffer))
            {
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
                final int at = before.subtaskOf(packet);
                final PacketBatch batch = new PacketBatch(at, 0, 1);
                batch.add(buffer);
                old[at].owners.observe(batch);
                for (final FlowProbe.Access access : FlowProbe.probe(runtime, packet).accesses())
                {
                    if (access.table() == connections)
                    {
                        old[at].connections.put(access.key(), buffer.sequence() + 1);
                        if (expectedOwner.put(access.key(), after.subtaskOf(packet)) == null && after.subtaskOf(packet) != at)
                        {
                            moved++;
                        }
                    }
                }
            }
        }
        assertTrue(moved > 100, "entries change subtask: " + moved);

        final List<SubtaskShare> shares = shares(runtime, old, connections);
        final Map<Long, Integer> landed = new HashMap<>();
        long entries = 0;
        for (int s = 0; s < NEW; s++)
        {
            final SubtaskShare mine = SubtaskShare.redistribute(shares, s, NEW, partitioning);
            final Checkpoint.Table table = mine.checkpoint().tables().get(connections);
            for (int i = 0; i < table.keys().length; i++)
            {
                assertEquals(null, landed.put(table.keys()[i], s), "key " + table.keys()[i] + " given twice");
                assertEquals(expectedOwner.get(table.keys()[i]), s, "key " + table.keys()[i] + " follows its connection's packets");
                final long value = table.values()[i];
                assertTrue(value == old[0].connections.getOrDefault(table.keys()[i], -1L)
                    || value == old[1].connections.getOrDefault(table.keys()[i], -1L), "the entry's value travels with it");
                entries++;
            }
            assertEquals(s == 0 ? 2 : 0, mine.staged().size(), "subtask 0 commits the staged parts, once");
            assertArrayEquals(s == 0 ? new long[] {3, 30} : new long[] {0, 0}, mine.checkpoint().counters(),
                "subtask 0 carries the counters of all");
            assertEquals(900, mine.lastTimeNs(), "every subtask resumes at the cut's packet time");
        }
        assertEquals(old[0].connections.size() + old[1].connections.size(), entries, "nothing lost, nothing duplicated");
    }

    @Test
    void shouldGiveEverythingToTheOneSubtaskAndRefuseToSplitWhatHasNoOwner() throws IOException
    {
        final ChainSpec chain = firewall(500);
        final ChainRuntime runtime = new ChainRuntime(chain);
        final Partitioning partitioning = Partitioning.of(runtime);
        final int connections = runtime.catalog().find("fw", "connections");
        final PacketRouter before = new PacketRouter(partitioning.routing(), OLD);
        // owners never noted: as if a VNF keyed its entries on a packet rewritten by an earlier one
        final Old[] old = {new Old(new ChainRuntime(chain), before), new Old(new ChainRuntime(chain), before)};
        old[0].connections.put(7L, 1L);
        old[1].connections.put(9L, 2L);
        final List<SubtaskShare> shares = shares(runtime, old, connections);

        final SubtaskShare one = SubtaskShare.redistribute(shares, 0, 1, partitioning);
        assertEquals(2, one.checkpoint().tables().get(connections).keys().length, "at parallelism 1 every entry is subtask 0's");
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> SubtaskShare.redistribute(shares, 0, NEW, partitioning));
        assertTrue(refused.getMessage().contains("fix: resume at parallelism 2"), refused.getMessage());
    }

    @Test
    void shouldRefuseToSplitTablesEachSubtaskKeepsItsOwnCopyOf() throws IOException
    {
        final ChainSpec lb = new ChainLoader().loadBundled("lb");
        final ChainRuntime runtime = new ChainRuntime(lb);
        final Partitioning partitioning = Partitioning.of(runtime);
        assertTrue(!partitioning.perSubtask().isEmpty());
        final List<SubtaskShare> shares = new ArrayList<>();
        for (int s = 0; s < OLD; s++)
        {
            shares.add(share(runtime, s, new long[runtime.catalog().size()][0], new long[runtime.catalog().size()][0]));
        }
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> SubtaskShare.redistribute(shares, 1, 4, partitioning));
        assertTrue(refused.getMessage().contains("per-subtask") && refused.getMessage().contains("lb.active"), refused.getMessage());
        assertEquals(0, SubtaskShare.redistribute(shares, 0, 1, partitioning).checkpoint().entries(), "parallelism 1 takes them");
    }

    @Test
    void shouldReadBackTheShareItWrote() throws IOException
    {
        final ChainSpec chain = firewall(10);
        final ChainRuntime runtime = new ChainRuntime(chain);
        final int tables = runtime.catalog().size();
        final long[][] keys = new long[tables][0];
        final long[][] hashes = new long[tables][0];
        keys[0] = new long[] {5, 6};
        hashes[0] = new long[] {-3, EntryOwners.UNKNOWN};
        final SubtaskShare written = share(runtime, 1, keys, hashes);
        final SubtaskShare read = SubtaskShare.fromBytes(written.toBytes(), written.checkpoint().chainId());
        assertEquals(1, read.subtask());
        assertEquals(OLD, read.parallelism());
        assertArrayEquals(hashes[0], read.owners()[0]);
        assertArrayEquals(keys[0], read.checkpoint().tables().get(0).keys());
        assertEquals(written.staged(), read.staged());
    }

    private static List<SubtaskShare> shares(final ChainRuntime runtime, final Old[] old, final int table)
    {
        final List<SubtaskShare> shares = new ArrayList<>();
        for (int s = 0; s < old.length; s++)
        {
            final int tables = runtime.catalog().size();
            final long[][] keys = new long[tables][0];
            final long[][] values = new long[tables][0];
            final long[][] hashes = new long[tables][0];
            keys[table] = old[s].connections.keySet().stream().mapToLong(Long::longValue).toArray();
            values[table] = old[s].connections.values().stream().mapToLong(Long::longValue).toArray();
            hashes[table] = old[s].owners.of(table, keys[table]);
            shares.add(share(runtime, s, keys, values, hashes));
        }
        return shares;
    }

    /** A share of old subtask {@code s}, every value 1; counters {1 + s, 10 + 10 s}. */
    private static SubtaskShare share(final ChainRuntime runtime, final int s, final long[][] keys, final long[][] hashes)
    {
        final long[][] values = new long[keys.length][];
        for (int t = 0; t < keys.length; t++)
        {
            values[t] = new long[keys[t].length];
            Arrays.fill(values[t], 1);
        }
        return share(runtime, s, keys, values, hashes);
    }

    /** A share of old subtask {@code s}; counters {1 + s, 10 + 10 s}, packet time 800 + 100 s. */
    private static SubtaskShare share(final ChainRuntime runtime, final int s, final long[][] keys, final long[][] values,
        final long[][] hashes)
    {
        final List<Checkpoint.Table> sections = new ArrayList<>();
        for (int t = 0; t < keys.length; t++)
        {
            sections.add(new Checkpoint.Table(runtime.catalog().qualifiedName(t), 0L, keys[t], values[t]));
        }
        final Checkpoint checkpoint = new Checkpoint(5, true, 0, 42L, 100, 800 + 100 * s, List.of(), new long[] {1 + s, 10 + 10 * s},
            sections);
        return new SubtaskShare(s, OLD, 10, 100, 800 + 100 * s, checkpoint, hashes, List.of("000" + s + "-part"));
    }

    private static ChainSpec firewall(final long packets)
    {
        final ChainSpec chain = new ChainLoader().parse(FIREWALL, "fw.yaml");
        return chain.withSettings(chain.settings().withTraffic(TrafficSpec.generate(chain.settings().traffic().generator().toBuilder()
            .set("packets", Long.toString(packets)).set("flows", "400").seed(3).build())));
    }
}
