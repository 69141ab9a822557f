package io.transnfv.engine.source;

import io.transnfv.vnf.distribution.ZipfDistribution;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * A deterministic synthetic traffic source: TCP and UDP connections from client hosts to
 * servers, with a controlled share of new connections, host and server skew, and frame
 * sizes; the same {@link GeneratorConfig} always yields the same bytes and timestamps.
 *
 * <p>Model, per packet (one splitmix64 stream seeded by {@code seed}):
 * <ol>
 *   <li>With probability {@code new_conn_ratio} (or when no connection is open) the packet
 *       opens a connection: a client (Zipf {@code host_skew} over {@code hosts} addresses
 *       from {@code client_base}, 10.0.0.1 by default), a server (Zipf {@code server_skew} over {@code servers} addresses
 *       from 172.16.0.1), a destination port drawn uniformly from {@code dst_ports} (list a
 *       port twice to weight it), a source port cycling through 1024–65535, and TCP with
 *       probability {@code tcp_ratio}. A TCP connection opens with a SYN, a UDP one with its
 *       first datagram. When {@code flows} connections are already open, a random one is
 *       replaced and ends silently, as if it timed out.</li>
 *   <li>Otherwise a uniformly chosen open connection sends a data packet (TCP: ACK). It is
 *       the connection's last with probability
 *       {@code new_conn_ratio / (1 - new_conn_ratio) * open / flows}, which keeps about
 *       {@code flows} connections open in steady state; a last TCP packet carries FIN with
 *       probability {@code fin_ratio}.</li>
 * </ol>
 * Only the client-to-server direction is generated. SYN and FIN packets carry no payload
 * and are padded to {@code min_size}; other frames have a length drawn uniformly from
 * {@code [min_size, max_size]}. Packet {@code i} is stamped
 * {@code start_ns + i * 1e9 / rate_pps}. Checksums are correct. With {@code vlan} every frame
 * carries an 802.1Q tag (inside {@code max_size}), and every packet has DSCP {@code dscp}.
 *
 * <p>All tables (connections, Zipf cumulative distributions) are allocated at
 * construction; {@link #next(PacketBuffer)} allocates nothing. Driven by one thread.
 */
public final class Generator implements PacketSource
{
    private static final int SERVER_BASE = 0xAC100001;
    private static final int VLAN_TPID = 0x8100;
    private static final int FIRST_EPHEMERAL_PORT = 1024;
    private static final int EPHEMERAL_PORTS = 65536 - FIRST_EPHEMERAL_PORT;
    private static final int TCP_HEADERS = 14 + 20 + 20;
    private static final int UDP_HEADERS = 14 + 20 + 8;
    private static final int VLAN_TAG = 4;

    private final GeneratorConfig config;
    private final FrameBuilder frame = new FrameBuilder();
    private final SourceStats stats = new SourceStats();
    private final ZipfDistribution hostZipf;
    private final ZipfDistribution serverZipf;
    private final int[] dstPorts;
    private final long packets;
    private final int flows;
    private final double newConnRatio;
    private final double endScale;
    private final int minSize;
    private final int sizeSpan;
    private final int vlan;
    private final int dscp;
    private final int tcpHeaders;
    private final int udpHeaders;

    private final int[] connClient;
    private final int[] connServer;
    private final int[] connSrcPort;
    private final int[] connDstPort;
    private final boolean[] connTcp;
    private final int[] connSeq;
    private final int[] connAck;
    private final int[] activeSlots;
    private final int[] activeIndex;
    private final int[] freeSlots;
    private int activeCount;
    private int freeCount;

    private long randomState;
    private long generated;
    private int ephemeral;

    /**
     * Set up the tables for a configuration.
     *
     * @param config the parameters.
     */
    public Generator(final GeneratorConfig config)
    {
        if (!config.streams().isEmpty())
        {
            throw new IllegalArgumentException("a configuration with streams is a merged source: open it with Generator.open");
        }
        this.config = config;
        packets = config.packets();
        flows = config.flows();
        newConnRatio = config.newConnRatio();
        endScale = newConnRatio >= 1.0 ? 1.0 : newConnRatio / (1.0 - newConnRatio) / flows;
        minSize = config.minSize();
        sizeSpan = config.maxSize() - config.minSize() + 1;
        dstPorts = config.dstPorts();
        vlan = config.vlan();
        dscp = config.dscp();
        tcpHeaders = TCP_HEADERS + (vlan != 0 ? VLAN_TAG : 0);
        udpHeaders = UDP_HEADERS + (vlan != 0 ? VLAN_TAG : 0);
        hostZipf = zipf(config.hosts(), config.hostSkew());
        serverZipf = zipf(config.servers(), config.serverSkew());
        connClient = new int[flows];
        connServer = new int[flows];
        connSrcPort = new int[flows];
        connDstPort = new int[flows];
        connTcp = new boolean[flows];
        connSeq = new int[flows];
        connAck = new int[flows];
        activeSlots = new int[flows];
        activeIndex = new int[flows];
        freeSlots = new int[flows];
        for (int i = 0; i < flows; i++)
        {
            freeSlots[i] = flows - 1 - i;
        }
        freeCount = flows;
        randomState = config.seed();
    }

    /**
     * @return the source {@code config} describes: this generator, or for a configuration with
     *         {@link GeneratorConfig#streams() streams} a {@link MergedGenerator} of them.
     */
    public static PacketSource open(final GeneratorConfig config)
    {
        return config.streams().isEmpty() ? new Generator(config) : new MergedGenerator(config);
    }

    /** @return the Zipf distribution over {@code n} ranks, or null for uniform (sampled with {@code nextInt}). */
    private static ZipfDistribution zipf(final int n, final double skew)
    {
        return skew == 0.0 || n == 1 ? null : new ZipfDistribution(n, skew);
    }

    /** @return the configuration. */
    public GeneratorConfig config()
    {
        return config;
    }

    @Override
    public int maxFrameBytes()
    {
        return config.maxSize();
    }

    /** @return connections open now. */
    public int openConnections()
    {
        return activeCount;
    }

    @Override
    public boolean next(final PacketBuffer dst)
    {
        if (generated >= packets)
        {
            return false;
        }
        if (dst.capacity() < config.maxSize())
        {
            throw new IllegalArgumentException("packet buffer capacity " + dst.capacity() + " < max_size " + config.maxSize());
        }
        final long sequence = generated++;
        final int length;
        if (activeCount == 0 || nextDouble() < newConnRatio)
        {
            length = openConnection(dst.data());
        }
        else
        {
            length = continueConnection(dst.data());
        }
        final long rate = config.ratePps();
        final long timestampNs = config.startNs() + (sequence / rate) * 1_000_000_000L +
            (sequence % rate) * 1_000_000_000L / rate;
        dst.commit(length, length, timestampNs, sequence);
        stats.onPacket(length);
        return true;
    }

    private int openConnection(final byte[] data)
    {
        final int slot;
        if (freeCount > 0)
        {
            slot = freeSlots[--freeCount];
        }
        else
        {
            slot = activeSlots[nextInt(activeCount)];
            removeActive(slot);
        }
        connClient[slot] = config.clientBase() + sample(hostZipf, config.hosts());
        connServer[slot] = SERVER_BASE + sample(serverZipf, config.servers());
        connDstPort[slot] = dstPorts[nextInt(dstPorts.length)];
        connSrcPort[slot] = FIRST_EPHEMERAL_PORT + ephemeral;
        ephemeral = ephemeral + 1 == EPHEMERAL_PORTS ? 0 : ephemeral + 1;
        connTcp[slot] = nextDouble() < config.tcpRatio();
        connSeq[slot] = (int)nextLong();
        connAck[slot] = (int)nextLong();
        activeIndex[slot] = activeCount;
        activeSlots[activeCount++] = slot;

        startFrame(slot);
        if (connTcp[slot])
        {
            frame.tcp(connSrcPort[slot], connDstPort[slot], PacketFlyweight.TCP_SYN, connSeq[slot], 0).frameLength(minSize);
            connSeq[slot]++;
        }
        else
        {
            frame.udp(connSrcPort[slot], connDstPort[slot]).payload(dataFrameSize() - udpHeaders, (byte)slot);
        }
        return frame.write(data, 0);
    }

    private int continueConnection(final byte[] data)
    {
        final int slot = activeSlots[nextInt(activeCount)];
        final boolean last = nextDouble() < endScale * activeCount;
        startFrame(slot);
        if (connTcp[slot])
        {
            if (last && nextDouble() < config.finRatio())
            {
                frame.tcp(connSrcPort[slot], connDstPort[slot], PacketFlyweight.TCP_FIN | PacketFlyweight.TCP_ACK,
                    connSeq[slot], connAck[slot]).frameLength(minSize);
            }
            else
            {
                final int payload = dataFrameSize() - tcpHeaders;
                frame.tcp(connSrcPort[slot], connDstPort[slot], PacketFlyweight.TCP_ACK, connSeq[slot], connAck[slot])
                    .payload(payload, (byte)slot);
                connSeq[slot] += payload;
            }
        }
        else
        {
            frame.udp(connSrcPort[slot], connDstPort[slot]).payload(dataFrameSize() - udpHeaders, (byte)slot);
        }
        if (last)
        {
            removeActive(slot);
            freeSlots[freeCount++] = slot;
        }
        return frame.write(data, 0);
    }

    private void startFrame(final int slot)
    {
        frame.reset().ipv4(connClient[slot], connServer[slot]).ipId((int)generated).dontFragment(true).dscp(dscp);
        if (vlan != 0)
        {
            frame.vlan(VLAN_TPID, vlan);
        }
    }

    private int dataFrameSize()
    {
        return minSize + nextInt(sizeSpan);
    }

    private void removeActive(final int slot)
    {
        final int index = activeIndex[slot];
        final int lastSlot = activeSlots[--activeCount];
        activeSlots[index] = lastSlot;
        activeIndex[lastSlot] = index;
    }

    private int sample(final ZipfDistribution zipf, final int n)
    {
        return zipf == null ? nextInt(n) : zipf.rank(nextDouble());
    }

    private long nextLong()
    {
        long z = (randomState += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private double nextDouble()
    {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    private int nextInt(final int bound)
    {
        return (int)(((nextLong() >>> 32) * bound) >>> 32);
    }

    @Override
    public SourceStats stats()
    {
        return stats;
    }

    @Override
    public String describe()
    {
        return "generator " + config.describe();
    }

    @Override
    public void close()
    {
        // Nothing to release: the generator holds only heap tables.
    }
}
