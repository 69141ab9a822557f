package io.transnfv.engine.source;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A source that lets through only as many packets as a test allows, and says "nothing yet"
 * beyond that, so that the test can look at a run held at a known packet (its live figures, its
 * control plane) and then let it go on. Shared by the engine's tests and, through the engine's
 * test-jar, by the CLI's.
 *
 * <p>Polled by the run's reading thread; the allowance is read through the supplier on every poll,
 * so the test may raise it from its own thread (an {@code AtomicLong}, an {@code AtomicBoolean}).
 */
public final class GatedPacketSource extends ForwardingPacketSource
{
    private final LongSupplier allowed;
    private long read;

    /**
     * @param source  the source to read from; closed with this one.
     * @param allowed how many packets may be read by now; may grow while the run goes on.
     */
    public GatedPacketSource(final PacketSource source, final LongSupplier allowed)
    {
        super(source);
        this.allowed = allowed;
    }

    /**
     * @param source  the source to read from; closed with this one.
     * @param at      the packets read before the source holds.
     * @param release true once the test lets the rest through; once true, read no more.
     * @return a source held after {@code at} packets until {@code release} says so.
     */
    public static GatedPacketSource heldAt(final PacketSource source, final long at, final BooleanSupplier release)
    {
        return new GatedPacketSource(source, new LongSupplier()
        {
            private boolean released;

            @Override
            public long getAsLong()
            {
                released = released || release.getAsBoolean();
                return released ? Long.MAX_VALUE : at;
            }
        });
    }

    /** @return the packets read so far. */
    public long read()
    {
        return read;
    }

    @Override
    public int poll(final PacketBuffer dst) throws SourceException
    {
        if (read >= allowed.getAsLong())
        {
            Thread.onSpinWait();
            return NOTHING_YET;
        }
        final int got = source.poll(dst);
        if (got == PACKET)
        {
            read++;
        }
        return got;
    }

    @Override
    public boolean next(final PacketBuffer dst) throws SourceException
    {
        int got;
        while ((got = poll(dst)) == NOTHING_YET)
        {
            Thread.onSpinWait();
        }
        return got == PACKET;
    }
}
