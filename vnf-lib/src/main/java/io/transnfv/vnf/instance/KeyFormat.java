package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.KeyKind;

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
