package io.transnfv.engine.chain;

import io.transnfv.vnf.fragment.FragmentTracker;

/**
 * How the chain's entry tracks IP fragments (see {@link FragmentTracker}): how long a
 * datagram's ports are remembered and its early fragments held, and how many fragments may be
 * held at once. Set in the YAML {@code settings: fragments:} block.
 *
 * @param timeoutNs packet time a datagram is remembered from its first fragment seen; more than 0.
 * @param maxHeld   most fragments held at once, waiting for their first fragment; 0 to
 *                  {@value FragmentTracker#MAX_HELD_LIMIT}.
 */
public record FragmentSettings(long timeoutNs, int maxHeld)
{
    /** Default timeout: 1 s of packet time, long enough for a datagram's fragments to arrive, short for an attack's. */
    public static final long DEFAULT_TIMEOUT_NS = 1_000_000_000L;
    /** Default number of fragments held at once. */
    public static final int DEFAULT_MAX_HELD = 64;

    /** Validates the settings. */
    public FragmentSettings
    {
        if (timeoutNs <= 0)
        {
            throw new IllegalArgumentException("fragment timeout must be > 0: " + timeoutNs);
        }
        if (maxHeld < 0 || maxHeld > FragmentTracker.MAX_HELD_LIMIT)
        {
            throw new IllegalArgumentException("fragments held must be 0 to " + FragmentTracker.MAX_HELD_LIMIT + ": " + maxHeld);
        }
    }

    /** @return the defaults: 1 s, 64 fragments. */
    public static FragmentSettings defaults()
    {
        return new FragmentSettings(DEFAULT_TIMEOUT_NS, DEFAULT_MAX_HELD);
    }
}
