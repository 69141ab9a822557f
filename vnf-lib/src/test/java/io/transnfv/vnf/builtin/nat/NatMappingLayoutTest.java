package io.transnfv.vnf.builtin.nat;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PackedLayout;
import io.transnfv.vnf.api.StateType;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.transnfv.vnf.api.PackedLayout.field;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_ACK;
import static io.transnfv.vnf.packet.PacketFlyweight.TCP_SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The NAT's {@code mappings} table declares its packed layout ({seen: 40, address: 8, port: 16})
 * and keeps one entry per endpoint whose bits are those of the NAT's documented encoding,
 * {@code last-seen ms mod 2^40 << 24 | address index << 16 | external port}, so checkpoints and
 * dumps written before the layout existed read the same.
 */
class NatMappingLayoutTest
{
    private static final long S = 1_000_000_000L;

    @Test
    void shouldDeclareItsMappingsAsAPackedRecordOfSeenAddressAndPort()
    {
        final TableCatalog catalog = new TableCatalog();
        final NatFactory factory = new NatFactory();
        new VnfInstance("nat", "nat", factory.create(VnfConfig.defaults(factory.params())), catalog);
        final TableSpec mappings = catalog.spec(catalog.find("nat", "mappings"));
        assertEquals(StateType.PACKED, mappings.type());
        assertEquals(PackedLayout.of(field("seen", 40), field("address", 8), field("port", 16)), mappings.packed());
        assertEquals(Nat.MAPPING, mappings.packed());
        assertEquals(KeyKind.ENDPOINT, mappings.keyKind(), "dumps print its keys as endpoints, as before");
        assertEquals(StateType.VALUE, catalog.spec(catalog.find("nat", "ports")).type());
    }

    @Test
    void shouldStoreEachMappingInTheBitsOfTheHandPackedEncoding()
    {
        final VnfHarness nat = VnfHarness.of(new NatFactory(), Map.of("external_ips", "198.51.100.0/30", "pool_size", 64));
        final long syn = 5 * S + 123_000_000L;
        final PacketFlyweight out = new PacketFlyweight();
        final byte[] frame = nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_SYN, 10), syn).frame();
        out.wrap(frame, 0, frame.length);
        final long endpoint = FlowKeys.endpoint(Ipv4.parse("10.0.0.5"), 4000, 6);
        final long addressIndex = out.srcIpv4() - Ipv4.parse("198.51.100.0");
        final long ms = syn / 1_000_000L;
        assertEquals((ms << 24) | (addressIndex << 16) | out.srcPort(), nat.state("mappings", endpoint));
        assertEquals(endpoint, nat.state("ports", (addressIndex << 16) | out.srcPort()));

        final long later = 9 * S + 7_000_000L;
        nat.offer(Frames.tcp("10.0.0.5", 4000, "8.8.8.8", 80, TCP_ACK, 11), later);
        assertEquals(((later / 1_000_000L) << 24) | (addressIndex << 16) | out.srcPort(), nat.state("mappings", endpoint),
            "a refresh rewrites the last-seen time only");
        assertEquals("seen=" + later / 1_000_000L + " address=" + addressIndex + " port=" + out.srcPort(),
            Nat.MAPPING.format(nat.state("mappings", endpoint)));
    }
}
