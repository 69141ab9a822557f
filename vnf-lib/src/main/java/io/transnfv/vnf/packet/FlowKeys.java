package io.transnfv.vnf.packet;

/**
 * Folds a packet's identity into {@code long} state keys, without allocating.
 *
 * <p>Exact keys: {@link #endpoint(int, int, int)} packs an IPv4 address, port and
 * protocol into 56 bits; {@link #srcHost(PacketFlyweight)} / {@link #dstHost(PacketFlyweight)}
 * of an IPv4 packet are the address as an unsigned number (0 to 2<sup>32</sup>-1).
 *
 * <p>Hashed keys: {@link #fiveTuple(PacketFlyweight)}, {@link #biflow(PacketFlyweight)},
 * {@link #threeTuple(PacketFlyweight)} and IPv6 host keys are 64-bit hashes built from
 * rounds of {@link #mix64(long)} (the MurmurHash3 {@code fmix64} finaliser), which behaves
 * like a random function of its input. For {@code n} distinct flows, the probability
 * that any two share a key is about {@code n^2 / 2^65}: 2.7e-8 for a million flows,
 * 2.7e-4 for 100 million. A collision merges two flows' state; callers that cannot
 * tolerate that keep the exact tuple beside the key. IPv6 host keys have bit 63 set, so
 * they never equal an IPv4 host key.
 *
 * <p>Non-first IP fragments carry no ports; the chain's entry gives them their datagram's
 * ({@link PacketFlyweight#recoverPorts(int, int)}), so in a chain their 5-tuple key is their
 * datagram's. A fragment whose ports were not recovered has ports 0; key every fragment of a
 * datagram with {@link #threeTuple(PacketFlyweight)} or {@link #datagram(PacketFlyweight)}
 * when they must meet regardless. For frames that
 * are not IP the keys are deterministic but meaningless; check
 * {@link PacketFlyweight#isIp()} first.
 *
 * <p>Stateless; any thread may call it.
 */
public final class FlowKeys
{
    private static final long SEED_FIVE_TUPLE = 0x9E3779B97F4A7C15L;
    private static final long SEED_BIFLOW = 0xC2B2AE3D27D4EB4FL;
    private static final long SEED_THREE_TUPLE = 0x165667B19E3779F9L;
    private static final long SEED_HOST = 0x27D4EB2F165667C5L;
    private static final long SEED_DATAGRAM = 0x85EBCA77C2B2AE63L;
    private static final long IPV6_HOST_TAG = 1L << 63;

    private FlowKeys()
    {
    }

    /**
     * MurmurHash3's 64-bit finaliser: a bijection on {@code long} whose output bits each
     * depend on all input bits.
     *
     * @param value input.
     * @return mixed value.
     */
    public static long mix64(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    /**
     * Hash of protocol, source and destination address and ports (ports 0 when the packet
     * has none). Direction matters: A→B and B→A differ.
     *
     * @param p a parsed packet.
     * @return a 64-bit key.
     */
    public static long fiveTuple(final PacketFlyweight p)
    {
        if (p.isIpv6())
        {
            return fiveTupleIpv6(p.srcIpv6High(), p.srcIpv6Low(), p.srcPort(), p.dstIpv6High(), p.dstIpv6Low(), p.dstPort(),
                p.ipProtocol());
        }
        return fiveTupleIpv4(p.srcIpv4(), p.srcPort(), p.dstIpv4(), p.dstPort(), p.ipProtocol());
    }

    /**
     * {@link #fiveTuple(PacketFlyweight)} of an IPv4 packet given by its fields, e.g. those an
     * ICMP error quotes ({@link IcmpErrorQuote}).
     *
     * @param src      source address, big-endian.
     * @param srcPort  source port, 0 when none.
     * @param dst      destination address.
     * @param dstPort  destination port.
     * @param protocol IP protocol number.
     * @return the same key {@link #fiveTuple(PacketFlyweight)} gives such a packet.
     */
    public static long fiveTupleIpv4(final int src, final int srcPort, final int dst, final int dstPort, final int protocol)
    {
        final long ports = ((long)srcPort << 16) | dstPort;
        final long tail = (ports << 8) | (protocol & 0xFF);
        final long addresses = ((long)src << 32) | (dst & 0xFFFF_FFFFL);
        return mix64(mix64(SEED_FIVE_TUPLE ^ addresses) ^ tail);
    }

    /**
     * {@link #fiveTuple(PacketFlyweight)} of an IPv6 packet given by its fields.
     *
     * @param srcHigh  upper 64 bits of the source address.
     * @param srcLow   lower 64 bits.
     * @param srcPort  source port, 0 when none.
     * @param dstHigh  upper 64 bits of the destination address.
     * @param dstLow   lower 64 bits.
     * @param dstPort  destination port.
     * @param protocol IP protocol number.
     * @return the same key {@link #fiveTuple(PacketFlyweight)} gives such a packet.
     */
    public static long fiveTupleIpv6(
        final long srcHigh, final long srcLow, final int srcPort, final long dstHigh, final long dstLow, final int dstPort,
        final int protocol)
    {
        final long ports = ((long)srcPort << 16) | dstPort;
        final long tail = (ports << 8) | (protocol & 0xFF);
        long h = mix64(SEED_FIVE_TUPLE ^ srcHigh);
        h = mix64(h ^ srcLow);
        h = mix64(h ^ dstHigh);
        h = mix64(h ^ dstLow);
        return mix64(h ^ tail);
    }

    /**
     * Direction-independent hash: the same key for A→B and B→A of one connection.
     *
     * @param p a parsed packet.
     * @return a 64-bit key.
     */
    public static long biflow(final PacketFlyweight p)
    {
        final int protocol = p.ipProtocol() & 0xFF;
        if (p.isIpv6())
        {
            return biflowIpv6(p.srcIpv6High(), p.srcIpv6Low(), p.srcPort(), p.dstIpv6High(), p.dstIpv6Low(), p.dstPort(), protocol);
        }
        return biflowIpv4(p.srcIpv4(), p.srcPort(), p.dstIpv4(), p.dstPort(), protocol);
    }

    /**
     * {@link #biflow(PacketFlyweight)} of an IPv4 connection given by its fields, e.g. those
     * an ICMP error quotes ({@link IcmpErrorQuote}); the endpoints may come in either order.
     *
     * @param a        one endpoint's address, big-endian.
     * @param aPort    its port, 0 when none.
     * @param b        the other endpoint's address.
     * @param bPort    its port.
     * @param protocol IP protocol number.
     * @return the same key {@link #biflow(PacketFlyweight)} gives a packet of the connection.
     */
    public static long biflowIpv4(final int a, final int aPort, final int b, final int bPort, final int protocol)
    {
        final long x = ((a & 0xFFFF_FFFFL) << 16) | aPort;
        final long y = ((b & 0xFFFF_FFFFL) << 16) | bPort;
        final long low = Math.min(x, y);
        final long high = Math.max(x, y);
        return mix64(mix64(mix64(SEED_BIFLOW ^ low) ^ high) ^ (protocol & 0xFF));
    }

    /**
     * {@link #biflow(PacketFlyweight)} of an IPv6 connection given by its fields; the
     * endpoints may come in either order.
     *
     * @param ah       upper 64 bits of one endpoint's address.
     * @param al       lower 64 bits.
     * @param aPort    its port, 0 when none.
     * @param bh       upper 64 bits of the other endpoint's address.
     * @param bl       lower 64 bits.
     * @param bPort    its port.
     * @param protocol IP protocol number.
     * @return the same key {@link #biflow(PacketFlyweight)} gives a packet of the connection.
     */
    public static long biflowIpv6(
        final long ah, final long al, final int aPort, final long bh, final long bl, final int bPort, final int protocol)
    {
        final int proto = protocol & 0xFF;
        long h = SEED_BIFLOW;
        if (ipv6EndpointOrder(ah, al, aPort, bh, bl, bPort) <= 0)
        {
            h = mix64(mix64(mix64(mix64(h ^ ah) ^ al) ^ bh) ^ bl);
            return mix64(h ^ (((long)aPort << 24) | ((long)bPort << 8) | proto));
        }
        h = mix64(mix64(mix64(mix64(h ^ bh) ^ bl) ^ ah) ^ al);
        return mix64(h ^ (((long)bPort << 24) | ((long)aPort << 8) | proto));
    }

    /**
     * The order {@link #biflowIpv6} puts two IPv6 endpoints in: by address, unsigned, then
     * by port. A VNF that stores a connection's exact endpoints beside its bi-flow key stores
     * them in this order, so both directions compare equal.
     *
     * @param ah    upper 64 bits of endpoint a's address.
     * @param al    lower 64 bits.
     * @param aPort a's port.
     * @param bh    upper 64 bits of endpoint b's address.
     * @param bl    lower 64 bits.
     * @param bPort b's port.
     * @return negative, zero or positive as a sorts before, with or after b.
     */
    public static int ipv6EndpointOrder(
        final long ah, final long al, final int aPort, final long bh, final long bl, final int bPort)
    {
        int order = Long.compareUnsigned(ah, bh);
        if (order == 0)
        {
            order = Long.compareUnsigned(al, bl);
        }
        if (order == 0)
        {
            order = Integer.compare(aPort, bPort);
        }
        return order;
    }

    /**
     * Hash of protocol and addresses, without ports: the key under which every fragment of
     * a datagram (and every connection between two hosts) meets.
     *
     * @param p a parsed packet.
     * @return a 64-bit key.
     */
    public static long threeTuple(final PacketFlyweight p)
    {
        final long protocol = p.ipProtocol() & 0xFF;
        if (p.isIpv6())
        {
            long h = mix64(SEED_THREE_TUPLE ^ p.srcIpv6High());
            h = mix64(h ^ p.srcIpv6Low());
            h = mix64(h ^ p.dstIpv6High());
            h = mix64(h ^ p.dstIpv6Low());
            return mix64(h ^ protocol);
        }
        final long addresses = ((long)p.srcIpv4() << 32) | (p.dstIpv4() & 0xFFFF_FFFFL);
        return mix64(mix64(SEED_THREE_TUPLE ^ addresses) ^ protocol);
    }

    /**
     * Hash of addresses, protocol and fragment identification ({@link PacketFlyweight#fragmentId()}):
     * the key every fragment of one datagram shares (RFC 791 and RFC 8200 group fragments by
     * exactly these fields).
     *
     * @param p a parsed packet.
     * @return a 64-bit key.
     */
    public static long datagram(final PacketFlyweight p)
    {
        final long tail = (p.fragmentId() << 8) | (p.ipProtocol() & 0xFF);
        if (p.isIpv6())
        {
            long h = mix64(SEED_DATAGRAM ^ p.srcIpv6High());
            h = mix64(h ^ p.srcIpv6Low());
            h = mix64(h ^ p.dstIpv6High());
            h = mix64(h ^ p.dstIpv6Low());
            return mix64(h ^ tail);
        }
        final long addresses = ((long)p.srcIpv4() << 32) | (p.dstIpv4() & 0xFFFF_FFFFL);
        return mix64(mix64(SEED_DATAGRAM ^ addresses) ^ tail);
    }

    /**
     * Exact packing of an IPv4 endpoint: {@code address << 24 | port << 8 | protocol}, 56 bits.
     *
     * <pre>
     *  63      56 55                    24 23          8 7        0
     *  |   0    |     IPv4 address (32)   |  port (16)  | proto (8) |
     * </pre>
     *
     * @param ipv4     address as a big-endian int.
     * @param port     0 to 65535.
     * @param protocol 0 to 255.
     * @return a non-negative key, unique per (address, port, protocol).
     */
    public static long endpoint(final int ipv4, final int port, final int protocol)
    {
        return ((ipv4 & 0xFFFF_FFFFL) << 24) | ((long)(port & 0xFFFF) << 8) | (protocol & 0xFF);
    }

    /**
     * Key of the source host: the IPv4 address as an unsigned number, or for IPv6 a hash of
     * the address with bit 63 set.
     *
     * @param p a parsed packet.
     * @return the host key.
     */
    public static long srcHost(final PacketFlyweight p)
    {
        return p.isIpv6() ? ipv6Host(p.srcIpv6High(), p.srcIpv6Low()) : p.srcIpv4() & 0xFFFF_FFFFL;
    }

    /**
     * Key of the destination host; see {@link #srcHost(PacketFlyweight)}.
     *
     * @param p a parsed packet.
     * @return the host key.
     */
    public static long dstHost(final PacketFlyweight p)
    {
        return p.isIpv6() ? ipv6Host(p.dstIpv6High(), p.dstIpv6Low()) : p.dstIpv4() & 0xFFFF_FFFFL;
    }

    /**
     * Host key of an IPv6 address: a hash with bit 63 set.
     *
     * @param high upper 64 bits of the address.
     * @param low  lower 64 bits of the address.
     * @return the host key, always negative.
     */
    public static long ipv6Host(final long high, final long low)
    {
        return mix64(mix64(SEED_HOST ^ high) ^ low) | IPV6_HOST_TAG;
    }
}
