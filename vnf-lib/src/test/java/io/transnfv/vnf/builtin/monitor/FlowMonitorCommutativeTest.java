package io.transnfv.vnf.builtin.monitor;

import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's host counters under {@code consistency: commutative}: it reads the hint at setup
 * and declares them as ADDs (deltas that never read the host's total), counting the same as the
 * read-modify-writes it declares without the hint; with host expiry it cannot honour the hint.
 */
class FlowMonitorCommutativeTest
{
    private static final FlowMonitorFactory FACTORY = new FlowMonitorFactory();

    private static VnfInstance instance(final TableCatalog catalog, final Map<String, ?> params, final Set<String> commutative)
    {
        return new VnfInstance("monitor", FACTORY.type(), FACTORY.create(VnfConfig.of(FACTORY.params(), params)), catalog, commutative);
    }

    /** @return each operation's type of one packet's transaction, and the state after it in {@code store}. */
    private static OperationType[] run(final VnfInstance instance, final MapStateStore store, final byte[] frame)
    {
        final TransactionLog log = new TransactionLog();
        final PacketFlyweight packet = new PacketFlyweight().wrap(frame, 0, frame.length);
        final int t = log.begin(1_000_000L, 0, packet);
        instance.vnf().preProcess(packet, log);
        log.end();
        assertEquals(0, new SerialApplier().apply(log, t, store));
        final OperationType[] types = new OperationType[log.operationCount(t)];
        for (int o = 0; o < types.length; o++)
        {
            types[o] = OperationType.fromOrdinal(log.type(log.firstOperation(t) + o));
        }
        return types;
    }

    @Test
    void shouldCountHostsByAddsWhenTheChainMakesTheirTablesCommutative()
    {
        final byte[] frame = Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_ACK, 100);
        final long host = Ipv4.parse("10.0.0.1") & 0xFFFF_FFFFL;

        final TableCatalog plainCatalog = new TableCatalog();
        final VnfInstance plain = instance(plainCatalog, Map.of(), Set.of());
        final MapStateStore plainStore = new MapStateStore(plainCatalog);
        final OperationType[] serializable = run(plain, plainStore, frame);
        assertEquals(OperationType.READ_MODIFY, serializable[3]);
        assertEquals(OperationType.READ_MODIFY, serializable[4]);

        final TableCatalog catalog = new TableCatalog();
        final VnfInstance hinted = instance(catalog, Map.of(), Set.of("host-packets", "host-bytes"));
        final MapStateStore store = new MapStateStore(catalog);
        final OperationType[] commutative = run(hinted, store, frame);
        assertEquals(OperationType.ADD, commutative[3], "host-packets");
        assertEquals(OperationType.ADD, commutative[4], "host-bytes");
        assertEquals(OperationType.READ_MODIFY, commutative[1], "flow counters read whether the flow is live: serializable");
        run(hinted, store, frame);
        run(plain, plainStore, frame);
        for (final String table : new String[] {"host-packets", "host-bytes"})
        {
            final long expected = plainStore.get(plainCatalog.find("monitor", table), host);
            assertEquals(expected, store.get(catalog.find("monitor", table), host), table + ": the same count either way");
        }
        assertEquals(2, store.get(catalog.find("monitor", "host-packets"), host));
    }

    @Test
    void shouldAddOnlyToTheTablesTheChainNames()
    {
        final TableCatalog catalog = new TableCatalog();
        final VnfInstance hinted = instance(catalog, Map.of(), Set.of("host-bytes"));
        final OperationType[] types = run(hinted, new MapStateStore(catalog), Frames.udp("10.0.0.1", 2000, "8.8.4.4", 53, 40));
        assertEquals(OperationType.READ_MODIFY, types[3]);
        assertEquals(OperationType.ADD, types[4]);
    }

    @Test
    void shouldDeclareHostCountersCommutableOnlyWithoutHostExpiry()
    {
        final TableCatalog kept = new TableCatalog();
        instance(kept, Map.of(), Set.of());
        assertTrue(kept.spec(kept.find("monitor", "host-packets")).honoursCommutative());
        assertFalse(kept.spec(kept.find("monitor", "flow-packets")).honoursCommutative(), "a flow's count restarts when idle");

        final TableCatalog expiring = new TableCatalog();
        instance(expiring, Map.of("host_idle_timeout", "5s", "expiry_interval", "1s"), Set.of());
        final String why = expiring.spec(expiring.find("monitor", "host-packets")).notCommutative();
        assertTrue(why.contains("host_idle_timeout"), why);

        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> instance(new TableCatalog(), Map.of("host_idle_timeout", "5s", "expiry_interval", "1s"), Set.of("host-packets")));
        assertTrue(e.getMessage().contains("cannot be commutative"), e.getMessage());
    }
}
