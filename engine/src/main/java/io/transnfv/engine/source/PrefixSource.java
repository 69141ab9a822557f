package io.transnfv.engine.source;

/**
 * The first {@code limit} frames of another source, which it closes with itself. Used to
 * warm a JVM up on the run's own traffic before the measured run, and then, with no limit,
 * around the measured run's source: the JIT compiled the warm-up's calls through this class,
 * and a run that reached its source some other way would throw that code away (deoptimise)
 * and run slower for its first hundreds of milliseconds.
 */
public final class PrefixSource extends ForwardingPacketSource
{
    private final long limit;
    private long read;

    /**
     * @param source the source to read from.
     * @param limit  frames to pass on, at least 0 ({@link Long#MAX_VALUE}: all of them).
     */
    public PrefixSource(final PacketSource source, final long limit)
    {
        super(source);
        if (limit < 0)
        {
            throw new IllegalArgumentException("limit must be >= 0: " + limit);
        }
        this.limit = limit;
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        if (read >= limit || !source.next(dst))
        {
            return false;
        }
        read++;
        return true;
    }

    /** @return whether the source it reads from is live. */
    @Override
    public boolean live()
    {
        return source.live();
    }

    @Override
    public String describe()
    {
        return limit == Long.MAX_VALUE ? source.describe() : "first " + limit + " packets of " + source.describe();
    }
}
