package io.transnfv.engine.pipeline;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.ingress.IngressRing;
import io.transnfv.engine.source.Generator;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.engine.source.SourceException;

/** Opens the packet source a {@link TrafficSpec} describes. */
public final class PacketSources
{
    private PacketSources()
    {
    }

    /**
     * @param traffic what to open.
     * @return a new source, positioned at its first packet.
     * @throws SourceException if a capture file cannot be opened or read.
     */
    public static PacketSource open(final TrafficSpec traffic) throws SourceException
    {
        return switch (traffic.kind())
        {
            case GENERATE -> Generator.open(traffic.generator());
            case PCAP -> PcapSource.open(traffic.pcap(), traffic.loops());
        };
    }

    /**
     * Opens the source behind an {@link IngressRing}: it is read on its own thread, so
     * reading or generating packets overlaps with processing them.
     *
     * @param traffic what to open.
     * @return the ring's consumer side.
     * @throws SourceException if a capture file cannot be opened.
     */
    public static PacketSource openWithIngressThread(final TrafficSpec traffic) throws SourceException
    {
        return new IngressRing(open(traffic), EngineConfiguration.INGRESS_RING_SLOTS);
    }

    /**
     * @param traffic the traffic.
     * @return how many packets the source will give, or -1 if unknown (capture files).
     */
    public static long expectedPackets(final TrafficSpec traffic)
    {
        return traffic.kind() == TrafficSpec.Kind.GENERATE ? traffic.generator().totalPackets() : -1;
    }
}
