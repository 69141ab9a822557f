package io.transnfv.flink.route;

import io.transnfv.engine.chain.Partitioning;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketRouterTest
{
    private static final int SUBTASKS = 4;

    private final byte[] frame = new byte[2048];
    private final PacketFlyweight packet = new PacketFlyweight();

    @Test
    void shouldSendBothDirectionsOfAConnectionAndEveryFragmentOfItsDatagramsToOneSubtask()
    {
        final PacketRouter router = new PacketRouter(Partitioning.Routing.HOST_PAIR, SUBTASKS);
        final Set<Integer> used = new HashSet<>();
        for (int host = 1; host <= 200; host++)
        {
            final int client = 0x0A000000 + host;
            final int server = 0xC6336400 + host % 7;
            final int out = router.subtaskOf(tcp(client, 40_000 + host, server, 443));
            assertEquals(out, router.subtaskOf(tcp(server, 443, client, 40_000 + host)), "the reply of host " + host);
            assertEquals(out, router.subtaskOf(fragment(client, server)), "a later fragment, with no ports, of host " + host);
            used.add(out);
        }
        assertEquals(SUBTASKS, used.size(), "connections spread over every subtask");
    }

    @Test
    void shouldSendEverythingOneHostSendsToOneSubtaskWhenRoutedBySource()
    {
        final PacketRouter router = new PacketRouter(Partitioning.Routing.SOURCE_HOST, SUBTASKS);
        final int first = router.subtaskOf(tcp(0x0A000001, 1000, 0x08080808, 80));
        for (int port = 1; port < 100; port++)
        {
            assertEquals(first, router.subtaskOf(tcp(0x0A000001, 1000 + port, 0x08080800 + port, 80 + port)));
        }
    }

    @Test
    void shouldSendEverythingToTheFirstSubtaskWhenATableIsSingle()
    {
        final PacketRouter router = new PacketRouter(Partitioning.Routing.SINGLE, SUBTASKS);
        for (int host = 1; host <= 50; host++)
        {
            assertEquals(0, router.subtaskOf(tcp(0x0A000000 + host, 1234, 0x08080808, 80)));
        }
    }

    @Test
    void shouldSendPacketsWithoutAddressesToTheFirstSubtask()
    {
        final PacketRouter router = new PacketRouter(Partitioning.Routing.HOST_PAIR, SUBTASKS);
        final int length = new FrameBuilder().etherType(0x0806).payload(28, (byte)0).write(frame, 0);
        assertTrue(length > 0);
        assertEquals(0, router.subtaskOf(packet.wrap(frame, 0, length)));
    }

    private PacketFlyweight tcp(final int src, final int srcPort, final int dst, final int dstPort)
    {
        final int length = new FrameBuilder().ipv4(src, dst).tcp(srcPort, dstPort, 0x10, 1, 1).write(frame, 0);
        return packet.wrap(frame, 0, length);
    }

    private PacketFlyweight fragment(final int src, final int dst)
    {
        final int length = new FrameBuilder().ipv4(src, dst).ipId(77).fragment(1480, false).ipProtocol(6).payload(40, (byte)1)
            .write(frame, 0);
        return packet.wrap(frame, 0, length);
    }
}
