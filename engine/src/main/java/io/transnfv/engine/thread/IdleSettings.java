package io.transnfv.engine.thread;

import io.transnfv.engine.EngineConfiguration;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * How every polling thread of the engine waits: spin, then yield, then park for a period that
 * doubles from a minimum to a maximum. The workers of a {@link WorkerGroup} wait this way with
 * a flag that lets whoever publishes work wake them; the engine's other pollers (a ring's
 * consumer, the DPDK receiver) use Agrona's {@link BackoffIdleStrategy} with the same
 * constants ({@link #newIdleStrategy()}). The baselines keep their own barrier constants.
 *
 * @param spins      busy spins before yielding.
 * @param yields     yields before parking.
 * @param minParkNs  the first park.
 * @param maxParkNs  the longest park.
 */
public record IdleSettings(int spins, int yields, long minParkNs, long maxParkNs)
{
    /** @return the settings of {@link EngineConfiguration}. */
    public static IdleSettings fromConfiguration()
    {
        return new IdleSettings(EngineConfiguration.IDLE_SPINS, EngineConfiguration.IDLE_YIELDS,
            EngineConfiguration.IDLE_MIN_PARK_NS, Math.max(EngineConfiguration.IDLE_MIN_PARK_NS, EngineConfiguration.IDLE_MAX_PARK_NS));
    }

    /** @return a new Agrona idle strategy with the configured constants, for one polling thread. */
    public static IdleStrategy newIdleStrategy()
    {
        final IdleSettings s = fromConfiguration();
        return new BackoffIdleStrategy(s.spins, s.yields, s.minParkNs, s.maxParkNs);
    }
}
