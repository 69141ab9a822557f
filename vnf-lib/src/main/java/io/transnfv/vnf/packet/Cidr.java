package io.transnfv.vnf.packet;

/**
 * An IPv4 prefix such as {@code 10.0.0.0/8}: immutable, parsed at setup, tested per packet
 * with {@link #contains(int)} (allocation-free, thread-safe).
 */
public final class Cidr
{
    private final int network;
    private final int prefixLength;
    private final int mask;

    private Cidr(final int network, final int prefixLength)
    {
        this.prefixLength = prefixLength;
        this.mask = prefixLength == 0 ? 0 : -1 << (32 - prefixLength);
        this.network = network & mask;
    }

    /**
     * Parse {@code a.b.c.d/n}. Host bits must be zero, so a typo such as {@code 10.1.0.0/8}
     * is caught; a bare address means {@code /32}.
     *
     * @param text the prefix.
     * @return the prefix.
     * @throws IllegalArgumentException naming the text if it is malformed.
     */
    public static Cidr parse(final String text)
    {
        final int slash = text.indexOf('/');
        final int address = Ipv4.parse(slash < 0 ? text : text.substring(0, slash));
        int length = 32;
        if (slash >= 0)
        {
            final String suffix = text.substring(slash + 1);
            if (suffix.isEmpty() || suffix.length() > 2 || !suffix.chars().allMatch(Character::isDigit))
            {
                throw new IllegalArgumentException("not a CIDR prefix: '" + text + "' (expected a.b.c.d/n, n 0-32)");
            }
            length = Integer.parseInt(suffix);
            if (length > 32)
            {
                throw new IllegalArgumentException("not a CIDR prefix: '" + text + "' (prefix length must be 0-32)");
            }
        }
        final Cidr cidr = new Cidr(address, length);
        if (cidr.network != address)
        {
            throw new IllegalArgumentException("CIDR prefix '" + text + "' has host bits set; did you mean " + cidr + "?");
        }
        return cidr;
    }

    /**
     * @param network      the network address; host bits are cleared.
     * @param prefixLength 0 to 32.
     * @return the prefix.
     */
    public static Cidr of(final int network, final int prefixLength)
    {
        if (prefixLength < 0 || prefixLength > 32)
        {
            throw new IllegalArgumentException("prefix length must be 0-32, got " + prefixLength);
        }
        return new Cidr(network, prefixLength);
    }

    /**
     * @param address a big-endian IPv4 address.
     * @return true if the address lies in this prefix.
     */
    public boolean contains(final int address)
    {
        return (address & mask) == network;
    }

    /** @return the network address (host bits zero). */
    public int network()
    {
        return network;
    }

    /** @return the prefix length, 0 to 32. */
    public int prefixLength()
    {
        return prefixLength;
    }

    /** @return the netmask as a big-endian int. */
    public int mask()
    {
        return mask;
    }

    /** @return the number of addresses in the prefix. */
    public long size()
    {
        return 1L << (32 - prefixLength);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Cidr && ((Cidr)other).network == network && ((Cidr)other).prefixLength == prefixLength;
    }

    @Override
    public int hashCode()
    {
        return network * 31 + prefixLength;
    }

    @Override
    public String toString()
    {
        return Ipv4.format(network) + "/" + prefixLength;
    }
}
