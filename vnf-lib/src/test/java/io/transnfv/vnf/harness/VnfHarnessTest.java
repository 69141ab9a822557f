package io.transnfv.vnf.harness;

import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VnfHarnessTest
{
    private static final long S = 1_000_000_000L;

    /** Counts packets in table {@code seen}, records expiry ticks, tags and alerts every packet. */
    private static class Recording implements Vnf
    {
        final List<Long> ticks = new ArrayList<>();
        final boolean tamper;
        int table;
        int alert;
        int tag;

        Recording(final boolean tamper)
        {
            this.tamper = tamper;
        }

        @Override
        public void setup(final VnfSetup setup)
        {
            table = setup.table(new TableSpec("seen", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "packets"));
            alert = setup.alertType("hello");
            tag = setup.tag("length");
            setup.expiryIntervalNs(S);
            setup.checker("at-most-two-packets", "the table never counts more than two packets", (state, violations) ->
            {
                if (state.get(table, 0L) > 2)
                {
                    violations.violated(0L, state.get(table, 0L) + " packets");
                }
            });
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
            if (tamper)
            {
                packet.setTtl(1);
            }
            txn.readModify(table, 0L, (current, ctx) -> current + 1, 0L);
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
            actions.alert(alert, result.after(0));
            actions.tag(tag, packet.frameLength());
        }

        @Override
        public void expire(final long nowNs, final StateMaintenance state)
        {
            ticks.add(nowNs);
        }
    }

    @Test
    void shouldRunOneExpiryTickPerIntervalCrossedBeforeThePacket()
    {
        final Recording vnf = new Recording(false);
        final VnfHarness harness = VnfHarness.of("rec", vnf);
        harness.offer(Frames.nonIp(), S / 2);
        assertEquals(List.of(), vnf.ticks);
        harness.offer(Frames.nonIp(), 3 * S);
        assertEquals(List.of(S, 2 * S, 3 * S), vnf.ticks);
        harness.advanceTo(4 * S + 1);
        assertEquals(List.of(S, 2 * S, 3 * S, 4 * S), vnf.ticks);
    }

    @Test
    void shouldReportAlertsTagsStateAndCounters()
    {
        final VnfHarness harness = VnfHarness.of("rec", new Recording(false));
        final byte[] frame = Frames.udp("10.0.0.1", 1, "10.0.0.2", 2, 10);
        harness.offer(frame, 0);
        final Outcome second = harness.offer(frame, 1);
        assertEquals("out", second.output());
        assertEquals(List.of("hello:2"), second.alerts());
        assertEquals(Long.valueOf(frame.length), second.tag("length"));
        assertEquals(2, harness.state("seen", 0));
        assertEquals(1, harness.size("seen"));
        assertEquals("rec.seen 0 2\n", harness.dump());
        assertThrows(IllegalArgumentException.class, () -> harness.state("nope", 0));
        assertThrows(IllegalArgumentException.class, () -> harness.counter("nope"));
    }

    @Test
    void shouldRunTheDeclaredCheckersOnTheStateBetweenPackets()
    {
        final VnfHarness harness = VnfHarness.of("rec", new Recording(false));
        final byte[] frame = Frames.udp("10.0.0.1", 1, "10.0.0.2", 2, 10);
        harness.offer(frame, S);
        harness.offer(frame, S + 1);
        assertEquals(List.of(), harness.check());
        harness.offer(frame, S + 2);
        assertEquals(List.of("at-most-two-packets 0: 3 packets"), harness.check());
    }

    @Test
    void shouldRefuseACheckerNameThatIsNotLowerCaseWordsOrDeclaredTwice()
    {
        final Vnf badName = new Recording(false)
        {
            @Override
            public void setup(final VnfSetup setup)
            {
                setup.checker("Port_Owned", "", (state, violations) -> { });
            }
        };
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VnfHarness.of("bad", badName)).getMessage()
            .contains("checker name 'Port_Owned' must be lower-case words joined by '-'"));
        final Vnf twice = new Recording(false)
        {
            @Override
            public void setup(final VnfSetup setup)
            {
                setup.checker("same", "", (state, violations) -> { });
                setup.checker("same", "", (state, violations) -> { });
            }
        };
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VnfHarness.of("twice", twice)).getMessage()
            .contains("checker 'same' is declared twice"));
    }

    @Test
    void shouldRejectPreProcessingThatModifiesThePacket()
    {
        final VnfHarness harness = VnfHarness.of("rec", new Recording(true));
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> harness.offer(Frames.udp("10.0.0.1", 1, "10.0.0.2", 2, 10), 0));
        assertTrue(e.getMessage().contains("preProcess"));
    }

    @Test
    void shouldRejectPacketsOutOfTimestampOrder()
    {
        final VnfHarness harness = VnfHarness.of("rec", new Recording(false));
        harness.offer(Frames.nonIp(), 2 * S);
        assertThrows(IllegalArgumentException.class, () -> harness.offer(Frames.nonIp(), S));
    }
}
