package io.transnfv.vnf.packet;

/**
 * A reusable view of the packet an ICMP or ICMPv6 error message quotes, so that the error
 * can be matched to the flow it is about.
 *
 * <pre>
 *  outer IP | ICMP type code cksum (4) | 4 bytes | quoted IP header (+ext) | quoted ports | ...
 *           ^ l4Offset                           ^ payloadOffset
 * </pre>
 *
 * <p>Errors understood: ICMP destination unreachable (3), source quench (4), redirect (5),
 * time exceeded (11) and parameter problem (12) quoting an IPv4 header; ICMPv6 destination
 * unreachable (1), packet too big (2), time exceeded (3) and parameter problem (4) quoting
 * an IPv6 header (its hop-by-hop, routing, destination-options and fragment headers
 * skipped). {@link #wrap(PacketFlyweight)} is true when the packet is such an error and the
 * quoted header is complete; the quoted ports are read when TCP or UDP and at least four
 * bytes of the transport header are quoted (RFC 792 quotes eight), else they are 0, as are
 * the ports of a quoted non-first fragment. The quote is the packet that <em>caused</em> the
 * error, so its source is usually the error's destination: {@link #biflow()} does not care.
 *
 * <p>A later fragment of an error carries no quote; in a chain the fragment tracker gives it
 * its first fragment's ({@link PacketFlyweight#recoverIcmpQuote}), and then this view reads
 * that ({@link #isRecovered()}); its rewrites then change only the view's quote, which the
 * next VNF reads, as a recovered port's setter does: the quote and the ICMP checksum are in
 * the first fragment, rewritten there.
 *
 * <p>Reads through the flyweight's bounds-checked accessors, never past the outer datagram,
 * and does not allocate. {@link #setSrcIpv4(PacketFlyweight, int, int)} and
 * {@link #setDstIpv4(PacketFlyweight, int, int)} rewrite a quoted IPv4 endpoint for a
 * translator, keeping the quoted IP header checksum, a quoted TCP/UDP checksum and the ICMP
 * checksum right. Not thread-safe: one per worker thread, like the flyweight.
 */
public final class IcmpErrorQuote
{
    private int ipVersion;
    private int protocol;
    private int srcIpv4;
    private int dstIpv4;
    private long srcHigh;
    private long srcLow;
    private long dstHigh;
    private long dstLow;
    private int srcPort;
    private int dstPort;
    private int quoteOffset;
    private int quotedL4Offset;
    private int quoteEnd;
    private boolean recovered;

    /**
     * Whether a packet is an ICMP/ICMPv6 error by its type alone, without looking at the quote.
     *
     * @param packet a parsed packet.
     * @return true for the error types listed in the class comment.
     */
    public static boolean isError(final PacketFlyweight packet)
    {
        if (!packet.isValid() || packet.isFragment() && !packet.isFirstFragment())
        {
            return packet.quoteRecovered();
        }
        final int type = packet.icmpType();
        if (packet.ipProtocol() == PacketFlyweight.PROTO_ICMP && packet.isIpv4())
        {
            return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
        }
        return packet.ipProtocol() == PacketFlyweight.PROTO_ICMPV6 && packet.isIpv6() && type >= 1 && type <= 4;
    }

    /**
     * Read the quote of an ICMP/ICMPv6 error.
     *
     * @param packet a parsed packet.
     * @return true if it is an error whose quoted IP header is complete; the accessors then
     *         describe the quoted packet, else they are undefined.
     */
    public boolean wrap(final PacketFlyweight packet)
    {
        if (!isError(packet))
        {
            return false;
        }
        if (packet.quoteRecovered())
        {
            return wrapRecovered(packet);
        }
        recovered = false;
        final int start = packet.l4Offset() + 8;
        final int end = packet.l3Offset() + packet.ipTotalLength();
        return packet.isIpv4() ? wrapIpv4(packet, start, end) : wrapIpv6(packet, start, end);
    }

    /** A later fragment of an error: the quote its first fragment carried, as the fragment tracker gave it. */
    private boolean wrapRecovered(final PacketFlyweight packet)
    {
        recovered = true;
        ipVersion = packet.isIpv6() ? 6 : 4;
        protocol = packet.quoteProtocol();
        srcHigh = packet.quoteSrcHigh();
        srcLow = packet.quoteSrcLow();
        dstHigh = packet.quoteDstHigh();
        dstLow = packet.quoteDstLow();
        srcIpv4 = (int)srcLow;
        dstIpv4 = (int)dstLow;
        srcPort = packet.quoteSrcPort();
        dstPort = packet.quoteDstPort();
        quoteOffset = -1;
        quotedL4Offset = -1;
        quoteEnd = -1;
        return true;
    }

    /** @return true if the quote last wrapped was given to a later fragment, which does not carry it. */
    public boolean isRecovered()
    {
        return recovered;
    }

    private boolean wrapIpv4(final PacketFlyweight packet, final int p, final int end)
    {
        if (end - p < 20 || (packet.getU8(p) >>> 4) != 4)
        {
            return false;
        }
        final int headerLength = (packet.getU8(p) & 0x0F) << 2;
        if (headerLength < 20 || end - p < headerLength)
        {
            return false;
        }
        ipVersion = 4;
        quoteOffset = p;
        quoteEnd = end;
        protocol = packet.getU8(p + 9);
        srcIpv4 = packet.getInt(p + 12);
        dstIpv4 = packet.getInt(p + 16);
        final boolean firstFragment = (packet.getU16(p + 6) & 0x1FFF) == 0;
        readPorts(packet, p + headerLength, end, firstFragment);
        return true;
    }

    private boolean wrapIpv6(final PacketFlyweight packet, final int p, final int end)
    {
        if (end - p < 40 || (packet.getU8(p) >>> 4) != 6)
        {
            return false;
        }
        ipVersion = 6;
        quoteOffset = p;
        quoteEnd = end;
        srcHigh = packet.getLong(p + 8);
        srcLow = packet.getLong(p + 16);
        dstHigh = packet.getLong(p + 24);
        dstLow = packet.getLong(p + 32);
        int next = packet.getU8(p + 6);
        int q = p + 40;
        boolean firstFragment = true;
        for (int skipped = 0; isExtension(next); skipped++)
        {
            if (skipped == PacketFlyweight.MAX_IPV6_EXTENSION_HEADERS || end - q < 8)
            {
                return false;
            }
            if (next == PacketFlyweight.PROTO_IPV6_FRAGMENT)
            {
                firstFragment &= (packet.getU16(q + 2) & 0xFFF8) == 0;
                next = packet.getU8(q);
                q += 8;
            }
            else
            {
                final int length = (packet.getU8(q + 1) + 1) << 3;
                next = packet.getU8(q);
                q += length;
            }
        }
        protocol = next;
        readPorts(packet, q, end, firstFragment);
        return true;
    }

    private static boolean isExtension(final int next)
    {
        return next == PacketFlyweight.PROTO_HOPOPT || next == PacketFlyweight.PROTO_IPV6_ROUTING
            || next == PacketFlyweight.PROTO_IPV6_DSTOPTS || next == PacketFlyweight.PROTO_IPV6_FRAGMENT;
    }

    private void readPorts(final PacketFlyweight packet, final int q, final int end, final boolean firstFragment)
    {
        quotedL4Offset = q;
        if (firstFragment && (protocol == PacketFlyweight.PROTO_TCP || protocol == PacketFlyweight.PROTO_UDP) && end - q >= 4)
        {
            srcPort = packet.getU16(q);
            dstPort = packet.getU16(q + 2);
        }
        else
        {
            srcPort = 0;
            dstPort = 0;
        }
    }

    /** @return 4 or 6: the quoted header's version, the same as the error's. */
    public int ipVersion()
    {
        return ipVersion;
    }

    /** @return the quoted packet's transport protocol. */
    public int protocol()
    {
        return protocol;
    }

    /** @return the quoted IPv4 source, big-endian; 0 for IPv6. */
    public int srcIpv4()
    {
        return ipVersion == 4 ? srcIpv4 : 0;
    }

    /** @return the quoted IPv4 destination, big-endian; 0 for IPv6. */
    public int dstIpv4()
    {
        return ipVersion == 4 ? dstIpv4 : 0;
    }

    /** @return upper 64 bits of the quoted IPv6 source; 0 for IPv4. */
    public long srcIpv6High()
    {
        return ipVersion == 6 ? srcHigh : 0L;
    }

    /** @return lower 64 bits of the quoted IPv6 source; 0 for IPv4. */
    public long srcIpv6Low()
    {
        return ipVersion == 6 ? srcLow : 0L;
    }

    /** @return upper 64 bits of the quoted IPv6 destination; 0 for IPv4. */
    public long dstIpv6High()
    {
        return ipVersion == 6 ? dstHigh : 0L;
    }

    /** @return lower 64 bits of the quoted IPv6 destination; 0 for IPv4. */
    public long dstIpv6Low()
    {
        return ipVersion == 6 ? dstLow : 0L;
    }

    /** @return the quoted source port, 0 when not quoted or not TCP/UDP. */
    public int srcPort()
    {
        return srcPort;
    }

    /** @return the quoted destination port, 0 when not quoted or not TCP/UDP. */
    public int dstPort()
    {
        return dstPort;
    }

    /**
     * Rewrite the quoted IPv4 source address and port of the error last wrapped, e.g. the
     * external endpoint of a translated packet back to the internal one.
     *
     * @param packet  the packet last passed to {@link #wrap(PacketFlyweight)}, an IPv4 error quoting TCP or UDP ports.
     * @param address the new address, big-endian.
     * @param port    the new port.
     */
    public void setSrcIpv4(final PacketFlyweight packet, final int address, final int port)
    {
        if (recovered)
        {
            checkRewritable();
            packet.rewriteRecoveredQuote(true, address, port);
            return;
        }
        rewrite(packet, quoteOffset + 12, address, quotedL4Offset, port);
    }

    /**
     * Rewrite the quoted IPv4 destination address and port of the error last wrapped.
     *
     * @param packet  the packet last passed to {@link #wrap(PacketFlyweight)}, an IPv4 error quoting TCP or UDP ports.
     * @param address the new address, big-endian.
     * @param port    the new port.
     */
    public void setDstIpv4(final PacketFlyweight packet, final int address, final int port)
    {
        if (recovered)
        {
            checkRewritable();
            packet.rewriteRecoveredQuote(false, address, port);
            return;
        }
        rewrite(packet, quoteOffset + 16, address, quotedL4Offset + 2, port);
    }

    private void checkRewritable()
    {
        if (ipVersion != 4 || protocol != PacketFlyweight.PROTO_TCP && protocol != PacketFlyweight.PROTO_UDP)
        {
            throw new IllegalStateException("the last quote wrapped is not an IPv4 TCP/UDP quote with ports");
        }
    }

    private void rewrite(final PacketFlyweight packet, final int addressIndex, final int address, final int portIndex, final int port)
    {
        if (ipVersion != 4 || protocol != PacketFlyweight.PROTO_TCP && protocol != PacketFlyweight.PROTO_UDP
            || quoteEnd - quotedL4Offset < 4)
        {
            throw new IllegalStateException("the last quote wrapped is not an IPv4 TCP/UDP quote with ports");
        }
        // every field changed is a 16-bit word of the ICMP message, so its checksum is updated
        // incrementally (RFC 1624): right for a first fragment too, which holds part of the message
        final int icmpChecksum = packet.l4Offset() + 2;
        int icmp = packet.getU16(icmpChecksum);
        final int oldAddress = packet.getInt(addressIndex);
        final int oldPort = packet.getU16(portIndex);
        put32(packet, addressIndex, address);
        put16(packet, portIndex, port);
        icmp = Checksums.update16(Checksums.update32(icmp, oldAddress, address), oldPort, port);
        final int headerChecksum = quoteOffset + 10;
        final int oldHeader = packet.getU16(headerChecksum);
        final int newHeader = Checksums.update32(oldHeader, oldAddress, address);
        put16(packet, headerChecksum, newHeader);
        icmp = Checksums.update16(icmp, oldHeader, newHeader);
        final int transportChecksum = quotedL4Offset + Checksums.checksumFieldOffset(protocol);
        if (quoteEnd - transportChecksum >= 2)
        {
            final int old = packet.getU16(transportChecksum);
            if (protocol == PacketFlyweight.PROTO_TCP || old != 0)
            {
                int updated = Checksums.update16(Checksums.update32(old, oldAddress, address), oldPort, port);
                if (protocol == PacketFlyweight.PROTO_UDP && updated == 0)
                {
                    updated = 0xFFFF;
                }
                put16(packet, transportChecksum, updated);
                icmp = Checksums.update16(icmp, old, updated);
            }
        }
        put16(packet, icmpChecksum, icmp);
    }

    private static void put16(final PacketFlyweight packet, final int index, final int value)
    {
        final byte[] array = packet.array();
        if (array != null)
        {
            PacketFlyweight.putU16(array, index, value);
        }
        else
        {
            packet.memory().putShort(index, (short)value);
        }
    }

    private static void put32(final PacketFlyweight packet, final int index, final int value)
    {
        final byte[] array = packet.array();
        if (array != null)
        {
            PacketFlyweight.putI32(array, index, value);
        }
        else
        {
            packet.memory().putInt(index, value);
        }
    }

    /** @return the {@link FlowKeys#fiveTuple(PacketFlyweight)} key of the quoted packet, in its own direction. */
    public long fiveTuple()
    {
        return ipVersion == 6
            ? FlowKeys.fiveTupleIpv6(srcHigh, srcLow, srcPort, dstHigh, dstLow, dstPort, protocol)
            : FlowKeys.fiveTupleIpv4(srcIpv4, srcPort, dstIpv4, dstPort, protocol);
    }

    /** @return the {@link FlowKeys#biflow(PacketFlyweight)} key of the connection the quoted packet belongs to. */
    public long biflow()
    {
        return ipVersion == 6
            ? FlowKeys.biflowIpv6(srcHigh, srcLow, srcPort, dstHigh, dstLow, dstPort, protocol)
            : FlowKeys.biflowIpv4(srcIpv4, srcPort, dstIpv4, dstPort, protocol);
    }
}
