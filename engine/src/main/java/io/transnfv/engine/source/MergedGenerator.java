package io.transnfv.engine.source;

import java.util.List;

/**
 * Several generated streams as one source: each stream is a {@link Generator} of its own
 * parameters (its rate, size, skews, share of new connections, client addresses, VLAN tag and
 * DSCP), and their packets are merged by timestamp, as one link carrying several customers'
 * traffic would deliver them. This is how a chain of tenants gets traffic whose tenants differ
 * in rate and shape (docs/tenants.md).
 *
 * <pre>
 *   stream 0: Generator(rate 900 k) ─┐
 *   stream 1: Generator(rate 100 k) ─┼─► earliest timestamp first (a tie: the lower stream) ─► packet n
 *   ...                              ┘
 * </pre>
 *
 * <p>The merged packets are numbered 0, 1, … in the order they are yielded, and the source ends
 * after {@link GeneratorConfig#packets()} packets or when every stream has ended, whichever comes
 * first. Stream {@code i} draws its random numbers from its own {@code seed} plus {@code i}, so
 * streams left at the default seed do not repeat each other. Deterministic like the generator:
 * the same configuration yields the same bytes and timestamps. Holds one packet of look-ahead per
 * stream, allocated at construction; {@link #next} allocates nothing. Driven by one thread.
 */
public final class MergedGenerator implements PacketSource
{
    private final GeneratorConfig config;
    private final Generator[] streams;
    private final PacketBuffer[] heads;
    private final boolean[] ended;
    private final SourceStats stats = new SourceStats();
    private final long packets;
    private final int maxFrameBytes;
    private long yielded;

    /** @param config a configuration with at least one stream. */
    public MergedGenerator(final GeneratorConfig config)
    {
        final List<GeneratorConfig> configs = config.streams();
        if (configs.isEmpty())
        {
            throw new IllegalArgumentException("a merged generator needs streams");
        }
        this.config = config;
        packets = config.packets();
        maxFrameBytes = config.maxFrameSize();
        streams = new Generator[configs.size()];
        heads = new PacketBuffer[configs.size()];
        ended = new boolean[configs.size()];
        for (int i = 0; i < streams.length; i++)
        {
            final GeneratorConfig stream = configs.get(i);
            streams[i] = new Generator(stream.toBuilder().seed(stream.seed() + i).build());
            heads[i] = new PacketBuffer(Math.max(PacketBuffer.MIN_CAPACITY, stream.maxSize()));
            ended[i] = !streams[i].next(heads[i]);
        }
    }

    /** @return the configuration. */
    public GeneratorConfig config()
    {
        return config;
    }

    @Override
    public int maxFrameBytes()
    {
        return maxFrameBytes;
    }

    @Override
    public boolean next(final PacketBuffer dst)
    {
        if (yielded >= packets)
        {
            return false;
        }
        int earliest = -1;
        for (int i = 0; i < heads.length; i++)
        {
            if (!ended[i] && (earliest < 0 || heads[i].timestampNs() < heads[earliest].timestampNs()))
            {
                earliest = i;
            }
        }
        if (earliest < 0)
        {
            return false;
        }
        if (dst.capacity() < maxFrameBytes)
        {
            throw new IllegalArgumentException("packet buffer capacity " + dst.capacity() + " < the streams' largest max_size " + maxFrameBytes);
        }
        final PacketBuffer head = heads[earliest];
        dst.copyFrom(head);
        dst.sequence(yielded++);
        stats.onPacket(dst.length());
        ended[earliest] = !streams[earliest].next(head);
        return true;
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
        for (final Generator stream : streams)
        {
            stream.close();
        }
    }
}
