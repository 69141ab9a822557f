package io.transnfv.scheduler;

import java.util.Objects;

/**
 * One point of the scheduling space: an exploration, a granularity and an abort handling,
 * composed (never one class per combination). Immutable; shared by every batch it is
 * chosen for.
 *
 * @param exploration   which ready unit next.
 * @param granularity   what a unit is.
 * @param abortHandling when aborts are resolved.
 */
public record SchedulingPolicy(Exploration exploration, Granularity granularity, AbortHandling abortHandling)
{
    /** Validates the composition. */
    public SchedulingPolicy
    {
        Objects.requireNonNull(exploration, "exploration");
        Objects.requireNonNull(granularity, "granularity");
        Objects.requireNonNull(abortHandling, "abortHandling");
    }

    /** @return structured breadth-first exploration, single-operation units, eager abort. */
    public static SchedulingPolicy breadthFirstSingleOperationEagerAbort()
    {
        return new SchedulingPolicy(new BreadthFirstExploration(), new SingleOperationGranularity(), new EagerAbort());
    }

    @Override
    public String toString()
    {
        return exploration + "/" + granularity + "/" + abortHandling;
    }
}
