package io.transnfv.vnf.packet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FiveTupleFormatTest
{
    private final byte[] buffer = new byte[256];
    private final FrameBuilder builder = new FrameBuilder();
    private final PacketFlyweight packet = new PacketFlyweight();

    private String render(final FrameBuilder frame)
    {
        return FiveTupleFormat.format(packet.wrap(buffer, 0, frame.write(buffer, 0)));
    }

    @Test
    void shouldRenderTcpUdpIcmpAndOtherProtocols()
    {
        assertEquals("tcp 10.0.0.1:1234>192.168.1.5:80",
            render(builder.reset().ipv4(Ipv4.parse("10.0.0.1"), Ipv4.parse("192.168.1.5")).tcp(1234, 80, 0, 0, 0)));
        assertEquals("udp 1.2.3.4:53>5.6.7.8:5353",
            render(builder.reset().ipv4(Ipv4.parse("1.2.3.4"), Ipv4.parse("5.6.7.8")).udp(53, 5353)));
        assertEquals("icmp 1.2.3.4>5.6.7.8",
            render(builder.reset().ipv4(Ipv4.parse("1.2.3.4"), Ipv4.parse("5.6.7.8")).icmp(8, 0)));
        assertEquals("ip47 1.2.3.4>5.6.7.8",
            render(builder.reset().ipv4(Ipv4.parse("1.2.3.4"), Ipv4.parse("5.6.7.8")).ipProtocol(47)));
        assertEquals("eth 0x0806", render(builder.reset().etherType(0x0806).payload(28, (byte)0)));
        packet.wrap(buffer, 0, 10);
        assertEquals("malformed truncated-l2", FiveTupleFormat.format(packet));
    }

    @Test
    void shouldRenderIpv6InBracketsWithRfc5952Compression()
    {
        assertEquals("tcp [2001:db8::1]:443>[::2]:50000",
            render(builder.reset().ipv6(0x20010DB8_00000000L, 1, 0, 2).tcp(443, 50000, 0, 0, 0)));
        assertEquals("udp [2001:db8:0:1:1:1:1:1]:1>[fe80::1:0:1]:2",
            render(builder.reset().ipv6(0x20010DB8_00000001L, 0x0001_0001_0001_0001L, 0xFE80_0000_0000_0000L, 0x0000_0001_0000_0001L)
                .udp(1, 2)));
    }
}
