package io.transnfv.flink.operator;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.control.FlowProbe;
import io.transnfv.flink.route.PacketRouter;
import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Which routing key each state entry of a subtask belongs to: for every packet handed to the
 * engine, the (table, key) pairs its VNFs declare ({@link FlowProbe}: their own pre-processing,
 * run with a recorder, nothing executed) are noted with the packet's routing hash
 * ({@link PacketRouter#routingHash}). A snapshot keeps the hash beside each entry, so that a
 * restore at another parallelism gives each entry to the subtask its packets now go to. Table
 * keys are hashes of packet fields the router does not see whole (a 5-tuple, a biflow), so the
 * owner cannot be computed from the key itself.
 *
 * <p>The first packet to touch a key names its owner (the packet that made the entry; an ICMP
 * error quoting a connection routed elsewhere does not take it over). A key that the VNFs
 * derive from a packet rewritten by an earlier VNF is not seen here: it has no owner, and a
 * restore at another parallelism refuses it. Chains routed {@code single} need no owners (every
 * entry is subtask 0's at every parallelism) and note none. The task thread only.
 */
final class EntryOwners
{
    /** The owner of an entry no packet was seen to touch. */
    static final long UNKNOWN = Long.MIN_VALUE + 0x5EED;

    private final ChainRuntime probeRuntime;
    private final PacketRouter router;
    private final boolean noting;
    private final boolean[] fragmentTables;
    private final PacketFlyweight packet = new PacketFlyweight();
    private Long2LongHashMap[] owners;

    /**
     * @param probeRuntime a runtime of the chain of its own (its VNFs' pre-processing is run here, on the task thread).
     * @param router       the run's routing (its parallelism does not matter: the hash does not depend on it).
     */
    EntryOwners(final ChainRuntime probeRuntime, final PacketRouter router)
    {
        this.probeRuntime = probeRuntime;
        this.router = router;
        final TableCatalog catalog = probeRuntime.catalog();
        this.noting = router.routing() != Partitioning.Routing.SINGLE;
        this.fragmentTables = new boolean[catalog.size()];
        for (int t = 0; t < catalog.size(); t++)
        {
            fragmentTables[t] = catalog.qualifiedName(t).startsWith(ChainRuntime.FRAGMENTS_OWNER + ".");
        }
        this.owners = fresh(catalog.size(), 1024);
    }

    /** @return true if owners are noted (the routing is not {@code single}). */
    boolean noting()
    {
        return noting;
    }

    /** Notes the owner of every entry the packets of {@code batch} declare. */
    void observe(final PacketBatch batch)
    {
        if (!noting)
        {
            return;
        }
        final byte[] data = batch.data();
        for (int i = 0, at = 0; i < batch.count(); i++, at = batch.next(at))
        {
            packet.wrap(data, batch.frameOffset(at), batch.length(at), batch.originalLength(at), batch.linkType(at));
            final long hash = router.routingHash(packet);
            for (final FlowProbe.Access access : FlowProbe.probe(probeRuntime, packet).accesses())
            {
                note(access.table(), access.key(), hash);
            }
            if (packet.isValid() && packet.isIp() && packet.isFragment())
            {
                // the fragment tracker's tables are keyed by datagram, whose fragments share the routing key
                final long datagram = FlowKeys.datagram(packet);
                for (int t = 0; t < fragmentTables.length; t++)
                {
                    if (fragmentTables[t])
                    {
                        note(t, datagram, hash);
                    }
                }
            }
        }
    }

    private void note(final int table, final long key, final long hash)
    {
        if (owners[table].get(key) == UNKNOWN)
        {
            owners[table].put(key, hash);
        }
    }

    /** Notes restored owners: {@code hashes[i]} of {@code keys[i]} in {@code table}. */
    void restore(final int table, final long[] keys, final long[] hashes)
    {
        for (int i = 0; i < keys.length; i++)
        {
            if (hashes[i] != UNKNOWN)
            {
                owners[table].put(keys[i], hashes[i]);
            }
        }
    }

    /**
     * @return the owners of {@code keys} of {@code table}, {@link #UNKNOWN} where none was seen.
     */
    long[] of(final int table, final long[] keys)
    {
        final long[] hashes = new long[keys.length];
        for (int i = 0; i < keys.length; i++)
        {
            hashes[i] = noting ? owners[table].get(keys[i]) : 0L;
        }
        return hashes;
    }

    /**
     * Forgets every key but the live ones, at a snapshot: the notes follow the state, not the
     * traffic. {@code keys[t]} are table {@code t}'s live keys, {@code hashes[t]} their owners.
     */
    void keepOnly(final long[][] keys, final long[][] hashes)
    {
        if (!noting)
        {
            return;
        }
        final Long2LongHashMap[] kept = new Long2LongHashMap[keys.length];
        for (int t = 0; t < keys.length; t++)
        {
            // each table's own size, room to grow: a snapshot is taken every few hundred milliseconds
            kept[t] = new Long2LongHashMap(Math.max(1024, Integer.highestOneBit(Math.max(1, keys[t].length)) << 2), UNKNOWN);
        }
        for (int t = 0; t < keys.length; t++)
        {
            for (int i = 0; i < keys[t].length; i++)
            {
                if (hashes[t][i] != UNKNOWN)
                {
                    kept[t].put(keys[t][i], hashes[t][i]);
                }
            }
        }
        owners = kept;
    }

    private static Long2LongHashMap[] fresh(final int tables, final int capacity)
    {
        final Long2LongHashMap[] maps = new Long2LongHashMap[tables];
        for (int t = 0; t < tables; t++)
        {
            maps[t] = new Long2LongHashMap(capacity, UNKNOWN);
        }
        return maps;
    }
}
