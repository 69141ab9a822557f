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
        final long ports = ((long)p.srcPort() << 16) | p.dstPort();
        final long tail = (ports << 8) | (p.ipProtocol() & 0xFF);
        if (p.isIpv6())
        {
            long h = mix64(SEED_FIVE_TUPLE ^ p.srcIpv6High());
            h = mix64(h ^ p.srcIpv6Low());
            h = mix64(h ^ p.dstIpv6High());
            h = mix64(h ^ p.dstIpv6Low());
            return mix64(h ^ tail);
        }
        final long addresses = ((long)p.srcIpv4() << 32) | (p.dstIpv4() & 0xFFFF_FFFFL);
        return mix64(mix64(SEED_FIVE_TUPLE ^ addresses) ^ tail);
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
            final long sh = p.srcIpv6High();
            final long sl = p.srcIpv6Low();
            final long dh = p.dstIpv6High();
            final long dl = p.dstIpv6Low();
            final int sp = p.srcPort();
            final int dp = p.dstPort();
            int order = Long.compareUnsigned(sh, dh);
            if (order == 0)
            {
                order = Long.compareUnsigned(sl, dl);
            }
            if (order == 0)
            {
                order = Integer.compare(sp, dp);
            }
            long h = SEED_BIFLOW;
            if (order <= 0)
            {
                h = mix64(mix64(mix64(mix64(h ^ sh) ^ sl) ^ dh) ^ dl);
                return mix64(h ^ (((long)sp << 24) | ((long)dp << 8) | protocol));
            }
            h = mix64(mix64(mix64(mix64(h ^ dh) ^ dl) ^ sh) ^ sl);
            return mix64(h ^ (((long)dp << 24) | ((long)sp << 8) | protocol));
        }
        final long a = ((p.srcIpv4() & 0xFFFF_FFFFL) << 16) | p.srcPort();
        final long b = ((p.dstIpv4() & 0xFFFF_FFFFL) << 16) | p.dstPort();
        final long low = Math.min(a, b);
        final long high = Math.max(a, b);
        return mix64(mix64(mix64(SEED_BIFLOW ^ low) ^ high) ^ protocol);
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
