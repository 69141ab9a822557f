package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.KeyKind;

import java.util.Locale;

/** Renders table keys for dumps and reports (allocates; never on the per-packet path). */
public final class KeyFormat
{
    private KeyFormat()
    {
    }

    /** @return {@code key} rendered as its kind says. */
    public static String format(final KeyKind kind, final long key)
    {
        return switch (kind)
        {
            case INDEX -> Long.toString(key);
            case HOST -> (key >>> 32) == 0 ? ipv4(key) : hex(key);
            case ENDPOINT -> endpoint(key);
            case FLOW, OPAQUE -> hex(key);
        };
    }

    /**
     * Reads a key written as {@link #format} writes it for {@code kind}: a decimal index, a dotted
     * IPv4 host, {@code address:port/protocol} for an endpoint, or {@code 0x} and 16 hex digits.
     *
     * @return the key.
     * @throws IllegalArgumentException saying which form {@code kind} expects.
     */
    public static long parse(final KeyKind kind, final String text)
    {
        final String t = text.trim();
        try
        {
            if (t.startsWith("0x") || t.startsWith("0X"))
            {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            return switch (kind)
            {
                case INDEX -> Long.parseLong(t);
                case HOST -> parseIpv4(t);
                case ENDPOINT -> parseEndpoint(t);
                case FLOW, OPAQUE -> throw new NumberFormatException("not hex");
            };
        }
        catch (final NumberFormatException | IndexOutOfBoundsException e)
        {
            throw new IllegalArgumentException("'" + text + "' is not a valid " + kind.name().toLowerCase(Locale.ROOT)
                + " key: write " + expected(kind));
        }
    }

    /** @return how a key of {@code kind} is written, for error messages. */
    public static String expected(final KeyKind kind)
    {
        return switch (kind)
        {
            case INDEX -> "a whole number, e.g. 3";
            case HOST -> "an IPv4 address, e.g. 10.0.0.1, or 0x and 16 hex digits";
            case ENDPOINT -> "address:port/protocol, e.g. 10.0.0.1:80/tcp, or 0x and 16 hex digits";
            case FLOW, OPAQUE -> "0x and 16 hex digits, as the state dump writes it";
        };
    }

    private static long parseIpv4(final String text)
    {
        final String[] parts = text.split("\\.", -1);
        if (parts.length != 4)
        {
            throw new NumberFormatException(text);
        }
        long address = 0;
        for (final String part : parts)
        {
            final int octet = Integer.parseInt(part);
            if (octet < 0 || octet > 255 || part.isEmpty() || part.charAt(0) == '+')
            {
                throw new NumberFormatException(text);
            }
            address = address << 8 | octet;
        }
        return address;
    }

    private static long parseEndpoint(final String text)
    {
        final int colon = text.lastIndexOf(':');
        final int slash = text.indexOf('/', colon);
        final long address = parseIpv4(text.substring(0, colon));
        final int port = Integer.parseInt(text.substring(colon + 1, slash));
        final String name = text.substring(slash + 1);
        final int protocol = switch (name)
        {
            case "tcp" -> 6;
            case "udp" -> 17;
            case "icmp" -> 1;
            default -> Integer.parseInt(name);
        };
        if (port < 0 || port > 0xffff || protocol < 0 || protocol > 0xff)
        {
            throw new NumberFormatException(text);
        }
        return address << 24 | (long)port << 8 | protocol;
    }

    private static String hex(final long key)
    {
        final String h = Long.toHexString(key);
        return "0x" + "0".repeat(16 - h.length()) + h;
    }

    private static String ipv4(final long address)
    {
        return ((address >>> 24) & 0xff) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "." + (address & 0xff);
    }

    private static String endpoint(final long key)
    {
        // layout of FlowKeys.endpoint: address << 24 | port << 8 | protocol
        final long address = key >>> 24;
        final int port = (int)((key >>> 8) & 0xffff);
        final int protocol = (int)(key & 0xff);
        return ipv4(address) + ":" + port + "/" + protocolName(protocol);
    }

    private static String protocolName(final int protocol)
    {
        return switch (protocol)
        {
            case 6 -> "tcp";
            case 17 -> "udp";
            case 1 -> "icmp";
            default -> Integer.toString(protocol);
        };
    }
}
