package io.transnfv.vnf.fragment;

import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * What a datagram's first fragment gives the fragments it releases: its transport fields (a
 * TCP/UDP datagram's ports, an ICMP/ICMPv6 datagram's type) and, for an ICMP error, the
 * packet it quotes. Filled by {@link FragmentTracker#firstFields}, because the first
 * fragment's transaction log may be reused before the released fragments go on. Allocated
 * once per executor; used by one thread at a time.
 */
public final class FirstFragmentFields
{
    long transport;
    long quoteTransport;
    long quoteSrcHigh;
    long quoteSrcLow;
    long quoteDstHigh;
    long quoteDstLow;

    /**
     * Gives a later fragment of the datagram these fields, as the tracker gives them to a later
     * fragment whose first was already seen.
     *
     * @param fragment a released fragment of the datagram whose first fragment filled this.
     */
    public void giveTo(final PacketFlyweight fragment)
    {
        FragmentTracker.recover(fragment, transport, quoteTransport, quoteSrcHigh, quoteSrcLow, quoteDstHigh, quoteDstLow);
    }
}
