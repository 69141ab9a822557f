package io.transnfv.vnf.packet;

/**
 * An IPv6 prefix such as {@code 2001:db8::/32}: immutable, parsed at setup, tested per
 * packet with {@link #contains(long, long)} (two masks, allocation-free, thread-safe). The
 * IPv4 counterpart is {@link Cidr}.
 */
public final class Ipv6Cidr
{
    private final long networkHigh;
    private final long networkLow;
    private final long maskHigh;
    private final long maskLow;
    private final int prefixLength;

    private Ipv6Cidr(final long high, final long low, final int prefixLength)
    {
        this.prefixLength = prefixLength;
        this.maskHigh = maskOf(prefixLength);
        this.maskLow = maskOf(prefixLength - 64);
        this.networkHigh = high & maskHigh;
        this.networkLow = low & maskLow;
    }

    /** @return a mask of the upper {@code bits} bits of a long, clamped to 0..64. */
    private static long maskOf(final int bits)
    {
        return bits <= 0 ? 0L : bits >= 64 ? -1L : -1L << (64 - bits);
    }

    /**
     * Whether configuration text names an IPv6 rather than an IPv4 prefix or address.
     *
     * @param text a prefix or address.
     * @return true if it contains a colon.
     */
    public static boolean isIpv6(final String text)
    {
        return text.indexOf(':') >= 0;
    }

    /**
     * Parse {@code address/n}. Host bits must be zero, so a typo such as
     * {@code 2001:db8:1::/32} is caught; a bare address means {@code /128}.
     *
     * @param text the prefix.
     * @return the prefix.
     * @throws IllegalArgumentException naming the text if it is malformed.
     */
    public static Ipv6Cidr parse(final String text)
    {
        final int slash = text.indexOf('/');
        final long[] address = Ipv6.parse(slash < 0 ? text : text.substring(0, slash));
        int length = 128;
        if (slash >= 0)
        {
            final String suffix = text.substring(slash + 1);
            if (suffix.isEmpty() || suffix.length() > 3 || !suffix.chars().allMatch(Character::isDigit))
            {
                throw new IllegalArgumentException("not a CIDR prefix: '" + text + "' (expected address/n, n 0-128)");
            }
            length = Integer.parseInt(suffix);
            if (length > 128)
            {
                throw new IllegalArgumentException("not a CIDR prefix: '" + text + "' (prefix length must be 0-128)");
            }
        }
        final Ipv6Cidr cidr = new Ipv6Cidr(address[0], address[1], length);
        if (cidr.networkHigh != address[0] || cidr.networkLow != address[1])
        {
            throw new IllegalArgumentException("CIDR prefix '" + text + "' has host bits set; did you mean " + cidr + "?");
        }
        return cidr;
    }

    /**
     * @param high         upper 64 bits of the network address; host bits are cleared.
     * @param low          lower 64 bits.
     * @param prefixLength 0 to 128.
     * @return the prefix.
     */
    public static Ipv6Cidr of(final long high, final long low, final int prefixLength)
    {
        if (prefixLength < 0 || prefixLength > 128)
        {
            throw new IllegalArgumentException("prefix length must be 0-128, got " + prefixLength);
        }
        return new Ipv6Cidr(high, low, prefixLength);
    }

    /**
     * @param high upper 64 bits of an address.
     * @param low  lower 64 bits.
     * @return true if the address lies in this prefix.
     */
    public boolean contains(final long high, final long low)
    {
        return (high & maskHigh) == networkHigh && (low & maskLow) == networkLow;
    }

    /** @return upper 64 bits of the network address (host bits zero). */
    public long networkHigh()
    {
        return networkHigh;
    }

    /** @return lower 64 bits of the network address (host bits zero). */
    public long networkLow()
    {
        return networkLow;
    }

    /** @return upper 64 bits of the netmask. */
    public long maskHigh()
    {
        return maskHigh;
    }

    /** @return lower 64 bits of the netmask. */
    public long maskLow()
    {
        return maskLow;
    }

    /** @return the prefix length, 0 to 128. */
    public int prefixLength()
    {
        return prefixLength;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Ipv6Cidr o
            && o.networkHigh == networkHigh && o.networkLow == networkLow && o.prefixLength == prefixLength;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(networkHigh * 31 + networkLow) * 31 + prefixLength;
    }

    @Override
    public String toString()
    {
        return Ipv6.format(networkHigh, networkLow) + "/" + prefixLength;
    }
}
