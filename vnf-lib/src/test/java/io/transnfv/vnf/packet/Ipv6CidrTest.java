package io.transnfv.vnf.packet;

import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Ipv6CidrTest
{
    @Test
    void shouldParseEveryTextFormOfAnAddress()
    {
        assertArrayEquals(new long[] {0x20010DB800000000L, 1L}, Ipv6.parse("2001:db8::1"));
        assertArrayEquals(new long[] {0L, 0L}, Ipv6.parse("::"));
        assertArrayEquals(new long[] {0L, 1L}, Ipv6.parse("::1"));
        assertArrayEquals(new long[] {0xFE80000000000000L, 0L}, Ipv6.parse("fe80::"));
        assertArrayEquals(new long[] {0x0001000200030004L, 0x0005000600070008L}, Ipv6.parse("1:2:3:4:5:6:7:8"));
        assertArrayEquals(new long[] {0x0001000200030004L, 0x0005000600070000L}, Ipv6.parse("1:2:3:4:5:6:7::"));
        assertArrayEquals(new long[] {0L, 0x0000FFFFC0000201L}, Ipv6.parse("::ffff:192.0.2.1"));
        assertArrayEquals(Ipv6.parse("2001:DB8::A"), Ipv6.parse("2001:db8::a"));
    }

    @Test
    void shouldRefuseTextThatIsNotAnAddressSayingWhy()
    {
        for (final String bad : new String[] {"", "1:2:3", "1::2::3", "12345::", "g::", ":1::", "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:8::", "::1.2.3", "10.0.0.1", "2001:db8::1%eth0"})
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ipv6.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("not an IPv6 address: '" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void shouldFormatAndParseBackAnyAddressForSeed42()
    {
        final Random random = new Random(42);
        for (int i = 0; i < 10_000; i++)
        {
            // zero groups are common in real addresses, so make them common here
            long high = random.nextLong() & random.nextLong() & random.nextLong();
            long low = random.nextLong() & random.nextLong() & random.nextLong();
            if (random.nextBoolean())
            {
                high &= 0xFFFF_0000_0000_FFFFL;
            }
            assertArrayEquals(new long[] {high, low}, Ipv6.parse(Ipv6.format(high, low)), Ipv6.format(high, low));
        }
    }

    @Test
    void shouldMatchAddressesInsideThePrefixOnly()
    {
        final Ipv6Cidr site = Ipv6Cidr.parse("2001:db8:1::/48");
        final long[] in = Ipv6.parse("2001:db8:1:ffff:1:2:3:4");
        final long[] out = Ipv6.parse("2001:db8:2::");
        assertTrue(site.contains(in[0], in[1]));
        assertFalse(site.contains(out[0], out[1]));
        final Ipv6Cidr host = Ipv6Cidr.parse("2001:db8::5");
        assertEquals(128, host.prefixLength());
        final long[] five = Ipv6.parse("2001:db8::5");
        final long[] six = Ipv6.parse("2001:db8::6");
        assertTrue(host.contains(five[0], five[1]));
        assertFalse(host.contains(six[0], six[1]), "a /128 compares the low half too");
        final Ipv6Cidr longPrefix = Ipv6Cidr.parse("2001:db8::8000:0:0/97");
        final long[] inLong = Ipv6.parse("2001:db8::8000:7fff:1");
        final long[] outLong = Ipv6.parse("2001:db8::8001:0:1");
        assertTrue(longPrefix.contains(inLong[0], inLong[1]));
        assertFalse(longPrefix.contains(outLong[0], outLong[1]));
        assertTrue(Ipv6Cidr.parse("::/0").contains(-1L, -1L));
        assertEquals("2001:db8:1::/48", site.toString());
    }

    @Test
    void shouldRefusePrefixesWithHostBitsOrABadLength()
    {
        assertEquals("CIDR prefix '2001:db8:1::/32' has host bits set; did you mean 2001:db8::/32?",
            assertThrows(IllegalArgumentException.class, () -> Ipv6Cidr.parse("2001:db8:1::/32")).getMessage());
        assertEquals("not a CIDR prefix: '2001:db8::/129' (prefix length must be 0-128)",
            assertThrows(IllegalArgumentException.class, () -> Ipv6Cidr.parse("2001:db8::/129")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Ipv6Cidr.parse("2001:db8::/x"));
    }
}
