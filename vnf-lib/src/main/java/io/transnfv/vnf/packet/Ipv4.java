package io.transnfv.vnf.packet;

/**
 * IPv4 address helpers for configuration and reports. Addresses are big-endian ints
 * ({@code 10.0.0.1 == 0x0A000001}), as {@link PacketFlyweight#srcIpv4()} returns them.
 *
 * <p>{@link #parse(String)} is for setup; {@link #format(int)} allocates and is for
 * reports, never the per-packet path.
 */
public final class Ipv4
{
    private Ipv4()
    {
    }

    /**
     * Parse dotted-quad notation, strictly: four decimal octets 0 to 255, nothing else.
     *
     * @param text e.g. {@code "10.0.0.1"}.
     * @return the address as a big-endian int.
     * @throws IllegalArgumentException naming the text if it is not an IPv4 address.
     */
    public static int parse(final CharSequence text)
    {
        int address = 0;
        int octets = 0;
        int value = -1;
        int digits = 0;
        final int length = text.length();
        for (int i = 0; i <= length; i++)
        {
            final char c = i < length ? text.charAt(i) : '.';
            if (c >= '0' && c <= '9')
            {
                value = (value < 0 ? 0 : value * 10) + (c - '0');
                if (++digits > 3 || value > 255)
                {
                    throw invalid(text);
                }
            }
            else if (c == '.' && value >= 0 && octets < 4)
            {
                address = (address << 8) | value;
                octets++;
                value = -1;
                digits = 0;
            }
            else
            {
                throw invalid(text);
            }
        }
        if (octets != 4)
        {
            throw invalid(text);
        }
        return address;
    }

    private static IllegalArgumentException invalid(final CharSequence text)
    {
        return new IllegalArgumentException("not an IPv4 address: '" + text + "' (expected a.b.c.d, each 0-255)");
    }

    /**
     * Format an address in dotted-quad notation. Allocates.
     *
     * @param address big-endian int.
     * @return e.g. {@code "10.0.0.1"}.
     */
    public static String format(final int address)
    {
        return appendTo(new StringBuilder(15), address).toString();
    }

    /**
     * Append an address in dotted-quad notation.
     *
     * @param out     destination.
     * @param address big-endian int.
     * @return {@code out}.
     */
    public static StringBuilder appendTo(final StringBuilder out, final int address)
    {
        return out.append(address >>> 24).append('.')
            .append((address >>> 16) & 0xFF).append('.')
            .append((address >>> 8) & 0xFF).append('.')
            .append(address & 0xFF);
    }
}
