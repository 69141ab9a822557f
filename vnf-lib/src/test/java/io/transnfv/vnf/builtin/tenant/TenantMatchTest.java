package io.transnfv.vnf.builtin.tenant;

import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.Ipv6Cidr;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tenant's match on real frames (VLAN, IPv4 and IPv6 prefixes, DSCP as a conjunction), the
 * classifier's first-match order, and the coverage check.
 */
class TenantMatchTest
{
    private static PacketFlyweight frame(final int vlan, final String src, final int dscp)
    {
        final FrameBuilder builder = new FrameBuilder();
        if (vlan >= 0)
        {
            builder.vlan(PacketFlyweight.ETHERTYPE_VLAN, vlan);
        }
        builder.ipv4(Ipv4.parse(src), Ipv4.parse("172.16.0.1")).udp(1000, 53).payload(10, (byte)0);
        final byte[] bytes = new byte[builder.length()];
        builder.write(bytes, 0);
        final int l3 = new PacketFlyweight().wrap(bytes, 0, bytes.length).l3Offset();
        bytes[l3 + 1] = (byte)(dscp << 2 | 0x1);   // DSCP in the upper six bits, ECN below
        return new PacketFlyweight().wrap(bytes, 0, bytes.length);
    }

    private static TenantMatch match(final int[] vlans, final String src, final int[] dscps)
    {
        return new TenantMatch(vlans, src == null ? null : List.of(Cidr.parse(src)), null, dscps);
    }

    @Test
    void shouldAcceptAPacketOnlyWhenEveryTestGivenHolds()
    {
        final TenantMatch m = match(new int[] {20, 10}, "10.0.0.0/24", new int[] {46});
        assertTrue(m.test(frame(10, "10.0.0.9", 46)));
        assertTrue(m.test(frame(20, "10.0.0.9", 46)));
        assertFalse(m.test(frame(30, "10.0.0.9", 46)), "another VLAN");
        assertFalse(m.test(frame(-1, "10.0.0.9", 46)), "untagged");
        assertFalse(m.test(frame(10, "10.0.1.9", 46)), "another prefix");
        assertFalse(m.test(frame(10, "10.0.0.9", 34)), "another DSCP");
        assertTrue(TenantMatch.ANY.test(frame(-1, "192.0.2.1", 0)));
        assertEquals(46, TenantMatch.dscp(frame(-1, "10.0.0.1", 46)));
    }

    @Test
    void shouldGiveAPacketToTheFirstTenantThatMatchesOrTheDefault()
    {
        final TenantClassifier withDefault = new TenantClassifier(List.of("a", "b", "c"),
            List.of(match(new int[] {10}, null, null), match(null, "10.0.0.0/8", null), match(null, null, new int[] {46})), 2);
        assertEquals(0, withDefault.classify(frame(10, "10.0.0.1", 46)), "a is tried first");
        assertEquals(1, withDefault.classify(frame(11, "10.0.0.1", 46)));
        assertEquals(2, withDefault.classify(frame(11, "192.0.2.1", 0)), "no match: the default");
        final TenantClassifier withoutDefault = new TenantClassifier(List.of("a"), List.of(match(new int[] {10}, null, null)), -1);
        assertEquals(-1, withoutDefault.classify(frame(11, "10.0.0.1", 0)));
    }

    @Test
    void shouldFindAnEarlierMatchThatCoversALaterOneKeyByKey()
    {
        assertTrue(TenantMatch.ANY.covers(match(new int[] {1}, null, null)));
        assertTrue(match(null, "10.0.0.0/8", null).covers(match(new int[] {1}, "10.1.0.0/16", new int[] {3})));
        assertTrue(match(new int[] {1, 2}, null, null).covers(match(new int[] {2}, null, null)));
        assertFalse(match(new int[] {1, 2}, null, null).covers(match(new int[] {2, 3}, null, null)));
        assertFalse(match(null, "10.1.0.0/16", null).covers(match(null, "10.0.0.0/8", null)), "a narrower prefix");
        assertFalse(match(new int[] {1}, null, null).covers(TenantMatch.ANY), "a later tenant without that test");
    }

    private static PacketFlyweight wrap(final byte[] frame)
    {
        return new PacketFlyweight().wrap(frame, 0, frame.length);
    }

    private static TenantMatch nets(final List<String> src, final List<String> dst)
    {
        return new TenantMatch(null, src == null ? null : src.stream().filter(n -> !Ipv6Cidr.isIpv6(n)).map(Cidr::parse).toList(),
            dst == null ? null : dst.stream().filter(n -> !Ipv6Cidr.isIpv6(n)).map(Cidr::parse).toList(), null,
            src == null ? null : src.stream().filter(Ipv6Cidr::isIpv6).map(Ipv6Cidr::parse).toList(),
            dst == null ? null : dst.stream().filter(Ipv6Cidr::isIpv6).map(Ipv6Cidr::parse).toList());
    }

    @Test
    void shouldMatchIpv6SourcesAndDestinationsByPrefixAndNeverAcrossFamilies()
    {
        final TenantMatch v6 = nets(List.of("2001:db8:a::/48"), null);
        assertTrue(v6.test(wrap(Frames.tcp("2001:db8:a::7", 1000, "2001:db8:ff::1", 80, 0, 0))));
        assertFalse(v6.test(wrap(Frames.tcp("2001:db8:b::7", 1000, "2001:db8:ff::1", 80, 0, 0))), "another /48");
        assertFalse(v6.test(wrap(Frames.tcp("10.0.0.1", 1000, "10.0.0.2", 80, 0, 0))), "an IPv4 packet never matches IPv6 prefixes");
        assertFalse(nets(List.of("0.0.0.0/0"), null).test(wrap(Frames.tcp("2001:db8:a::7", 1, "2001:db8::1", 2, 0, 0))),
            "an IPv6 packet never matches IPv4 prefixes, however wide");
        final TenantMatch both = nets(null, List.of("10.9.0.0/16", "fd00::/8"));
        assertTrue(both.test(wrap(Frames.udp("192.0.2.1", 5, "10.9.3.4", 53, 0))));
        assertTrue(both.test(wrap(Frames.udp("2001:db8::1", 5, "fd12::4", 53, 0))));
        assertFalse(both.test(wrap(Frames.udp("fd12::4", 5, "2001:db8::1", 53, 0))), "the source is not tested");
        final TenantMatch withVlan = new TenantMatch(new int[] {7}, null, null, null, List.of(Ipv6Cidr.parse("2001:db8:a::/48")), null);
        assertFalse(withVlan.test(wrap(Frames.tcp("2001:db8:a::7", 1000, "2001:db8:ff::1", 80, 0, 0))), "untagged: the VLAN test fails");
    }

    @Test
    void shouldFindAnEarlierIpv6PrefixThatCoversALaterOne()
    {
        assertTrue(nets(List.of("2001:db8::/32"), null).covers(nets(List.of("2001:db8:a::/48"), null)));
        assertFalse(nets(List.of("2001:db8:a::/48"), null).covers(nets(List.of("2001:db8::/32"), null)), "a narrower prefix");
        assertTrue(nets(List.of("10.0.0.0/8", "2001:db8::/32"), null).covers(nets(List.of("10.1.0.0/16", "2001:db8:1::/48"), null)));
        assertFalse(nets(List.of("10.0.0.0/8"), null).covers(nets(List.of("10.1.0.0/16", "2001:db8:1::/48"), null)),
            "the later tenant's IPv6 packets are not the earlier one's");
        assertFalse(nets(List.of("2001:db8::/32"), null).covers(nets(List.of("10.1.0.0/16"), null)));
        assertTrue(nets(List.of("::/0", "0.0.0.0/0"), null).covers(nets(List.of("10.1.0.0/16", "fd00::/8"), null)));
    }
}
