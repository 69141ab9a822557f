package io.transnfv.vnf.packet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv4Test
{
    @Test
    void shouldParseAndFormatDottedQuads()
    {
        assertEquals(0x0A000001, Ipv4.parse("10.0.0.1"));
        assertEquals(0xFFFFFFFF, Ipv4.parse("255.255.255.255"));
        assertEquals(0, Ipv4.parse("0.0.0.0"));
        assertEquals("192.168.1.5", Ipv4.format(Ipv4.parse("192.168.1.5")));
        assertEquals("255.255.255.255", Ipv4.format(-1));
    }

    @Test
    void shouldRejectMalformedAddressesNamingThem()
    {
        for (final String bad : new String[] {"", "1.2.3", "1.2.3.4.5", "256.0.0.1", "1..2.3", "a.b.c.d", "1.2.3.4 ", "0001.2.3.4"})
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ipv4.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void shouldMatchAddressesInsideACidrPrefix()
    {
        final Cidr tenEight = Cidr.parse("10.0.0.0/8");
        assertTrue(tenEight.contains(Ipv4.parse("10.255.1.2")));
        assertFalse(tenEight.contains(Ipv4.parse("11.0.0.0")));
        assertTrue(Cidr.parse("0.0.0.0/0").contains(Ipv4.parse("200.1.1.1")));
        assertTrue(Cidr.parse("1.2.3.4").contains(Ipv4.parse("1.2.3.4")));
        assertFalse(Cidr.parse("1.2.3.4/32").contains(Ipv4.parse("1.2.3.5")));
        assertEquals(256, Cidr.parse("192.168.7.0/24").size());
        assertEquals("10.0.0.0/8", tenEight.toString());
    }

    @Test
    void shouldRejectCidrWithHostBitsOrBadLength()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.1.0.0/8")).getMessage().contains("10.0.0.0/8"));
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/"));
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/x"));
    }
}
