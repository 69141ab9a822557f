package io.transnfv.engine.source;

/**
 * A source that changes how another one's packets are read (how many, when, in what state) and
 * forwards everything else to it: its frame size, its statistics, its description and its
 * closing, which closes the source it wraps. Subclasses implement {@link #next} (and
 * {@link #poll} if they pace).
 */
public abstract class ForwardingPacketSource implements PacketSource
{
    /** The source this one reads from, owned by it from now on. */
    protected final PacketSource source;

    /** @param source the source to read from; closed with this one. */
    protected ForwardingPacketSource(final PacketSource source)
    {
        this.source = source;
    }

    @Override
    public int maxFrameBytes()
    {
        return source.maxFrameBytes();
    }

    @Override
    public SourceStats stats()
    {
        return source.stats();
    }

    @Override
    public String describe()
    {
        return source.describe();
    }

    @Override
    public void close() throws SourceException
    {
        source.close();
    }
}
