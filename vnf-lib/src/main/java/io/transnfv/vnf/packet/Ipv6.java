package io.transnfv.vnf.packet;

/**
 * IPv6 address helpers for configuration and reports. An address is two {@code long}s,
 * its upper and lower 64 bits in network order, as {@link PacketFlyweight#srcIpv6High()} and
 * {@link PacketFlyweight#srcIpv6Low()} return them.
 *
 * <p>{@link #parse(CharSequence)} is for setup and allocates; {@link #format(long, long)} is
 * for reports, never the per-packet path.
 */
public final class Ipv6
{
    private Ipv6()
    {
    }

    /**
     * Parse RFC 4291 text: eight groups of one to four hex digits separated by {@code :},
     * at most one {@code ::} standing for one or more zero groups, and optionally a dotted
     * IPv4 address in place of the last two groups ({@code ::ffff:192.0.2.1}). No zone
     * ({@code %eth0}) and no brackets.
     *
     * @param text e.g. {@code "2001:db8::1"}.
     * @return {@code {high, low}}.
     * @throws IllegalArgumentException naming the text if it is not an IPv6 address.
     */
    public static long[] parse(final CharSequence text)
    {
        final String s = text.toString();
        final int[] groups = new int[8];
        final int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0)
        {
            throw invalid(text, "'::' appears more than once");
        }
        final int headCount;
        if (gap < 0)
        {
            headCount = groups(text, s, groups, 0, 8, true);
            if (headCount != 8)
            {
                throw invalid(text, "it has " + headCount + " groups, not 8, and no '::'");
            }
        }
        else
        {
            final int[] tail = new int[8];
            final int head = gap == 0 ? 0 : groups(text, s.substring(0, gap), groups, 0, 7, false);
            final String rest = s.substring(gap + 2);
            final int tailCount = rest.isEmpty() ? 0 : groups(text, rest, tail, 0, 7 - head, true);
            if (head + tailCount > 7)
            {
                throw invalid(text, "'::' stands for no group");
            }
            System.arraycopy(tail, 0, groups, 8 - tailCount, tailCount);
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < 4; i++)
        {
            high = (high << 16) | groups[i];
            low = (low << 16) | groups[i + 4];
        }
        return new long[] {high, low};
    }

    /** Parse colon-separated groups of {@code part} into {@code out[from..]}; returns how many. */
    private static int groups(
        final CharSequence text, final String part, final int[] out, final int from, final int max, final boolean ipv4Tail)
    {
        final String[] words = part.split(":", -1);
        int n = from;
        for (int w = 0; w < words.length; w++)
        {
            final String word = words[w];
            if (ipv4Tail && w == words.length - 1 && word.indexOf('.') >= 0)
            {
                if (n + 2 > max)
                {
                    throw invalid(text, "too many groups");
                }
                final int v4;
                try
                {
                    v4 = Ipv4.parse(word);
                }
                catch (final IllegalArgumentException e)
                {
                    throw invalid(text, "'" + word + "' is not a dotted IPv4 tail");
                }
                out[n++] = v4 >>> 16;
                out[n++] = v4 & 0xFFFF;
                continue;
            }
            if (word.isEmpty() || word.length() > 4)
            {
                throw invalid(text, "group '" + word + "' is not 1 to 4 hex digits");
            }
            int value = 0;
            for (int i = 0; i < word.length(); i++)
            {
                final int digit = Character.digit(word.charAt(i), 16);
                if (digit < 0)
                {
                    throw invalid(text, "group '" + word + "' is not 1 to 4 hex digits");
                }
                value = (value << 4) | digit;
            }
            if (n >= max)
            {
                throw invalid(text, "too many groups");
            }
            out[n++] = value;
        }
        return n - from;
    }

    private static IllegalArgumentException invalid(final CharSequence text, final String why)
    {
        return new IllegalArgumentException("not an IPv6 address: '" + text + "' (" + why
            + "; expected hex groups such as 2001:db8::1)");
    }

    /**
     * Format an address in RFC 5952 canonical text. Allocates.
     *
     * @param high upper 64 bits.
     * @param low  lower 64 bits.
     * @return e.g. {@code "2001:db8::1"}.
     */
    public static String format(final long high, final long low)
    {
        return FiveTupleFormat.appendIpv6(new StringBuilder(39), high, low).toString();
    }
}
