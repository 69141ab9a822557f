package io.transnfv.cli;

import io.transnfv.dpdk.DpdkConfig;
import io.transnfv.dpdk.DpdkException;
import io.transnfv.dpdk.DpdkFrontEnd;
import io.transnfv.dpdk.DpdkSource;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.VnfConfig;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code --dpdk "<EAL args>"}: run the chain with DPDK in and out instead of the chain's
 * traffic. Packets come from a DPDK port and forwarded packets leave through it; see
 * {@code docs/dpdk.md}.
 */
final class DpdkOptions
{
    @Option(names = "--dpdk", paramLabel = "EAL_ARGS",
        description = {"Receive and transmit through DPDK, with these EAL arguments, e.g.",
            "\"--no-huge --no-pci -m 256 --no-shconf --vdev=net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap\"."})
    String ealArgs;

    @Option(names = "--dpdk-port", paramLabel = "PORT", defaultValue = "",
        description = "DPDK port: number or device name (default: the first port).")
    String port;

    @Option(names = "--dpdk-idle", paramLabel = "DURATION", defaultValue = "500ms",
        description = "End the run after DURATION without packets; 0 = run until interrupted (default: ${DEFAULT-VALUE}).")
    String idle;

    @Option(names = "--dpdk-packets", paramLabel = "N", defaultValue = "0",
        description = "End the run after N packets; 0 = no limit (default: ${DEFAULT-VALUE}).")
    long maxPackets;

    @Option(names = "--dpdk-rx-queues", paramLabel = "N", defaultValue = "1",
        description = "Rx queues, polled in turn by one thread (default: ${DEFAULT-VALUE}).")
    int rxQueues;

    @Option(names = "--dpdk-burst", paramLabel = "N", defaultValue = "32",
        description = "Packets per rx/tx crossing, 1-256 (default: ${DEFAULT-VALUE}).")
    int burst;

    @Option(names = "--dpdk-data-room", paramLabel = "BYTES", defaultValue = "" + DpdkConfig.DEFAULT_DATA_ROOM_BYTES,
        description = {"Mbuf data room, 256-65407 (default: ${DEFAULT-VALUE}). A frame that fits is processed in its mbuf;",
            "a longer one arrives as a chain of mbufs and is copied (e.g. 9216 keeps jumbo frames in place).",
            "A smaller room is slower, not lossy: the mbuf pool grows to hold a full ring of 1518-byte frames."})
    int dataRoom;

    private DpdkFrontEnd frontEnd;

    /** @return true when {@code --dpdk} was given. */
    boolean enabled()
    {
        return ealArgs != null;
    }

    /**
     * @return the DPDK source for {@code chain} (its ring sized for the chain's batches).
     * @throws IOException "dpdk: DPDK unavailable: why" without DPDK, or DPDK's error text.
     */
    PacketSource open(final ChainSpec chain) throws IOException
    {
        final DpdkConfig config = DpdkConfig.of(DpdkConfig.splitArgs(ealArgs))
            .withPort(port)
            .withQueues(rxQueues, 1)
            .withBurst(burst)
            .withIdleTimeoutNs(VnfConfig.parseDurationNs(idle))
            .withMaxPackets(maxPackets)
            .withDataRoom(dataRoom)
            .forBatch(chain.settings().punctuationTransactions());
        frontEnd = DpdkFrontEnd.open(config);
        return frontEnd.source();
    }

    /**
     * @return the open port's counters by name, read from any thread (the front end writes them,
     *         the port's own are as of its last refresh); null when no port is open.
     */
    Supplier<Map<String, Long>> portCounters()
    {
        final DpdkFrontEnd open = frontEnd;
        return open == null ? null : () -> open.port().counters().toMap();
    }

    /**
     * @return the port's statistics as testpmd prints them, refreshed from the port now (the run
     *         has ended: nothing else reads the port), or null when no port is open.
     * @throws DpdkException if the port cannot say.
     */
    String nicStatistics() throws DpdkException
    {
        final DpdkFrontEnd open = frontEnd;
        return open == null ? null : open.port().refreshCounters().nicStatistics(open.port().id());
    }

    /**
     * @return a listener that calls {@code first} (may be null), then applies the verdict on
     *         the DPDK port. The sink comes last because the engine's buffer is a view of the
     *         mbuf, which may be transmitted and reused once the sink has the verdict.
     */
    PacketListener withSink(final PacketSource source, final PacketListener first)
    {
        if (!(source instanceof DpdkSource) || frontEnd == null)
        {
            return first;
        }
        final PacketListener sink = frontEnd.sink();
        return first == null ? sink : (record, buffer, packet) ->
        {
            first.onPacket(record, buffer, packet);
            sink.onPacket(record, buffer, packet);
        };
    }
}
