package io.transnfv.vnf.builtin.tenant;

import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tenant's match on real frames (VLAN, prefixes, DSCP as a conjunction), the classifier's first-match order, and the coverage check. */
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
}
