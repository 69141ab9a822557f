package io.transnfv.vnf.builtin.monitor;

import io.transnfv.tpg.txn.OperationType;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
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
 * The monitor's counters under {@code consistency: fire-and-forget}: it reads the hint at setup
 * and declares their updates as DEFERs, whose results read 0 and which count the same as the
 * read-modify-writes it declares without the hint; the tables it reads refuse the hint.
 */
class FlowMonitorFireAndForgetTest
{
    private static final FlowMonitorFactory FACTORY = new FlowMonitorFactory();
    private static final Set<String> COUNTERS = Set.of("flow-packets", "flow-bytes", "host-packets", "host-bytes");

    private static VnfInstance instance(final TableCatalog catalog, final Map<String, ?> params, final Set<String> fireAndForget)
    {
        return new VnfInstance("monitor", FACTORY.type(), FACTORY.create(VnfConfig.of(FACTORY.params(), params)), catalog, Set.of(),
            fireAndForget, Set.of());
    }

    /** Runs one packet's transaction in {@code store}; @return the log, with its types and results. */
    private static TransactionLog run(final VnfInstance instance, final MapStateStore store, final byte[] frame, final long nowNs)
    {
        final TransactionLog log = new TransactionLog();
        final PacketFlyweight packet = new PacketFlyweight().wrap(frame, 0, frame.length);
        final int t = log.begin(nowNs, 0, packet);
        instance.vnf().preProcess(packet, log);
        log.end();
        assertEquals(0, new SerialApplier().apply(log, t, store));
        return log;
    }

    @Test
    void shouldUpdateTheCountersByDeferralsThatCountTheSameWhenTheChainMakesThemFireAndForget()
    {
        final byte[] frame = Frames.tcp("10.0.0.1", 1000, "8.8.8.8", 80, TCP_ACK, 100);
        for (final Map<String, ?> params : java.util.List.<Map<String, ?>>of(Map.of(), Map.of("host_idle_timeout", "5s", "expiry_interval", "1s")))
        {
            final TableCatalog plainCatalog = new TableCatalog();
            final VnfInstance plain = instance(plainCatalog, params, Set.of());
            final MapStateStore plainStore = new MapStateStore(plainCatalog);
            final TableCatalog catalog = new TableCatalog();
            final VnfInstance hinted = instance(catalog, params, COUNTERS);
            final MapStateStore store = new MapStateStore(catalog);
            for (int i = 1; i <= 3; i++)
            {
                run(plain, plainStore, frame, i * 1_000_000L);
                final TransactionLog log = run(hinted, store, frame, i * 1_000_000L);
                int deferred = 0;
                for (int o = 0; o < log.operationCount(); o++)
                {
                    final boolean counter = COUNTERS.contains(catalog.spec(log.table(o)).name());
                    assertEquals(counter ? OperationType.DEFER : OperationType.READ_MODIFY, OperationType.fromOrdinal(log.type(o)),
                        catalog.spec(log.table(o)).name());
                    if (counter)
                    {
                        deferred++;
                        assertEquals(0L, log.before(o), "nothing can read a fire-and-forget update's result");
                        assertEquals(0L, log.after(o), "nothing can read a fire-and-forget update's result");
                    }
                }
                assertEquals(4, deferred, params.toString());
            }
            for (final String table : COUNTERS)
            {
                final int t = catalog.find("monitor", table);
                assertEquals(plainStore.size(plainCatalog.find("monitor", table)), store.size(t), table);
                plainStore.forEach(plainCatalog.find("monitor", table),
                    (key, value) -> assertEquals(value, store.get(t, key), table + ": the same count either way"));
            }
        }
    }

    @Test
    void shouldOfferFireAndForgetOnlyForTheTablesItNeverReads()
    {
        final TableCatalog catalog = new TableCatalog();
        instance(catalog, Map.of(), Set.of());
        for (int t = 0; t < catalog.size(); t++)
        {
            final String name = catalog.spec(t).name();
            assertEquals(COUNTERS.contains(name), catalog.spec(t).honoursFireAndForget(), name);
        }
        assertFalse(catalog.spec(catalog.find("monitor", "flow-last-seen")).honoursFireAndForget(), "post-processing reads whether the flow was live");
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> instance(new TableCatalog(), Map.of(), Set.of("flow-errors")));
        assertTrue(e.getMessage().contains("cannot be fire-and-forget"), e.getMessage());
    }
}
