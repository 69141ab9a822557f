package io.transnfv.scheduler;

import java.util.Objects;

/** A static policy: every batch gets the same one. */
final class FixedDecisionModel implements DecisionModel
{
    private final SchedulingPolicy policy;

    FixedDecisionModel(final SchedulingPolicy policy)
    {
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    @Override
    public SchedulingPolicy choose(final BatchStatistics stats)
    {
        return policy;
    }

    @Override
    public void observe(final BatchStatistics stats, final SchedulingPolicy policy, final long batchNs)
    {
    }

    @Override
    public String lastReason()
    {
        return "static";
    }

    @Override
    public String name()
    {
        return policy.name();
    }

    @Override
    public boolean adaptive()
    {
        return false;
    }
}
