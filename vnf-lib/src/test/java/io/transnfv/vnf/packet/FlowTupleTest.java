package io.transnfv.vnf.packet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowTupleTest
{
    @Test
    void shouldReadTheUrlSpellingIntoAPacketWithTheSameKeys()
    {
        final FlowTuple tuple = FlowTuple.parse("tcp:10.0.0.1:1234-192.0.2.5:80");
        final byte[] frame = tuple.frame();
        final PacketFlyweight p = new PacketFlyweight().wrap(frame, 0, frame.length);
        assertTrue(p.isValid());
        assertEquals(FlowKeys.fiveTupleIpv4(Ipv4.parse("10.0.0.1"), 1234, Ipv4.parse("192.0.2.5"), 80, PacketFlyweight.PROTO_TCP),
            FlowKeys.fiveTuple(p));
        assertTrue(p.isAck() && !p.isSyn() && !p.isFin() && !p.isRst(), "a packet of an established connection");
        assertEquals("tcp 10.0.0.1:1234>192.0.2.5:80", tuple.toString());
    }

    @Test
    void shouldReadTheOutputRecordSpellingAsItIsPrinted()
    {
        final String printed = "udp [2001:db8::1]:53>[2001:db8::2]:5353";
        final FlowTuple tuple = FlowTuple.parse(printed);
        assertTrue(tuple.ipv6());
        assertArrayEquals(Ipv6.parse("2001:db8::2"), tuple.dst());
        assertEquals(5353, tuple.dstPort());
        assertEquals(printed, tuple.toString());
        assertEquals(tuple.toString(), FlowTuple.parse("udp:[2001:db8::1]:53-[2001:db8::2]:5353").toString());
    }

    @Test
    void shouldTakeProtocolsWithoutPortsWithoutThem()
    {
        assertEquals("icmp 10.0.0.1>10.0.0.2", FlowTuple.parse("icmp:10.0.0.1-10.0.0.2").toString());
        assertEquals(47, FlowTuple.parse("ip47:10.0.0.1-10.0.0.2").protocol());
    }

    @Test
    void shouldSayWhatIsWrongWithABadTuple()
    {
        assertMessage("hello", "'hello' is not a flow tuple");
        assertMessage("tcp:10.0.0.1-10.0.0.2:80", "tcp needs a port at both ends");
        assertMessage("icmp:10.0.0.1:5-10.0.0.2:80", "icmp has no ports");
        assertMessage("tcp:10.0.0.1:70000-10.0.0.2:80", "'70000' is not a port");
        assertMessage("tcp:10.0.0.300:1-10.0.0.2:80", "10.0.0.300");
        assertMessage("sctp:10.0.0.1:1-10.0.0.2:80", "'sctp' is not a protocol");
        assertMessage("ip300:10.0.0.1-10.0.0.2", "'ip300' is not a protocol");
        assertMessage("udp:[2001:db8::1]:53-10.0.0.2:80", "mixes IPv4 and IPv6");
        assertMessage("udp:[2001:db8::zz]:53-[2001:db8::2]:80", "2001:db8::zz");
    }

    private static void assertMessage(final String text, final String expected)
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowTuple.parse(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
