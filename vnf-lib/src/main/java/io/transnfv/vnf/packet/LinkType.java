package io.transnfv.vnf.packet;

/**
 * The link layers a frame may start with, numbered as in pcap's {@code LINKTYPE_*}
 * registry (the numbers a capture file's header or a pcapng interface block carries),
 * and where each puts the network layer.
 *
 * <pre>
 *  type  name                         link header   network protocol taken from
 *     1  Ethernet II                  14 bytes      EtherType at 12 (then VLAN tags)
 *     0  BSD loopback (NULL)           4 bytes      address family, host byte order
 *   108  OpenBSD loopback (LOOP)       4 bytes      address family, network byte order
 *   113  Linux cooked (SLL)           16 bytes      protocol (an EtherType) at 14
 *   276  Linux cooked v2 (SLL2)       20 bytes      protocol (an EtherType) at 0
 * </pre>
 *
 * <p>Address families: 2 is IPv4 on every system; IPv6 is 10 (Linux), 24 (NetBSD,
 * OpenBSD), 28 (FreeBSD) or 30 (macOS). Stateless; safe from any thread.
 */
public final class LinkType
{
    /** BSD loopback encapsulation: a 4-byte address family in the capturing host's byte order. */
    public static final int NULL = 0;
    /** Ethernet II, optionally with VLAN tags. */
    public static final int ETHERNET = 1;
    /** OpenBSD loopback: a 4-byte address family in network byte order. */
    public static final int LOOP = 108;
    /** Linux "cooked" capture, v1: what {@code tcpdump -i any} writes. */
    public static final int LINUX_SLL = 113;
    /** Linux "cooked" capture, v2. */
    public static final int LINUX_SLL2 = 276;

    /** Link header length of {@link #NULL} and {@link #LOOP}. */
    public static final int LOOPBACK_HEADER_LENGTH = 4;
    /** Link header length of {@link #LINUX_SLL}. */
    public static final int LINUX_SLL_HEADER_LENGTH = 16;
    /** Link header length of {@link #LINUX_SLL2}. */
    public static final int LINUX_SLL2_HEADER_LENGTH = 20;

    private LinkType()
    {
    }

    /**
     * @param linkType a pcap link type number.
     * @return true if {@link PacketFlyweight} parses frames of this link type.
     */
    public static boolean isSupported(final int linkType)
    {
        return linkType == ETHERNET || linkType == NULL || linkType == LOOP || linkType == LINUX_SLL ||
            linkType == LINUX_SLL2;
    }

    /**
     * @param linkType a pcap link type number.
     * @return a short name for messages and reports, e.g. {@code "Linux cooked (SLL)"}.
     */
    public static String name(final int linkType)
    {
        switch (linkType)
        {
            case NULL:
                return "BSD loopback (NULL)";
            case ETHERNET:
                return "Ethernet";
            case LOOP:
                return "OpenBSD loopback (LOOP)";
            case LINUX_SLL:
                return "Linux cooked (SLL)";
            case LINUX_SLL2:
                return "Linux cooked v2 (SLL2)";
            default:
                return "link type " + linkType;
        }
    }

    /**
     * The EtherType a loopback address family stands for.
     *
     * @param family the address family as read from the frame.
     * @return {@link PacketFlyweight#ETHERTYPE_IPV4}, {@link PacketFlyweight#ETHERTYPE_IPV6}, or 0 (not IP).
     */
    static int etherTypeOfFamily(final int family)
    {
        switch (family)
        {
            case 2:
                return PacketFlyweight.ETHERTYPE_IPV4;
            case 10:
            case 24:
            case 28:
            case 30:
                return PacketFlyweight.ETHERTYPE_IPV6;
            default:
                return 0;
        }
    }
}
