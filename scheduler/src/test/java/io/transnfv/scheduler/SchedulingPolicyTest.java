package io.transnfv.scheduler;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchedulingPolicyTest
{
    @Test
    void shouldListTwelveDistinctStaticPoliciesThatParseBackFromTheirNames()
    {
        final List<SchedulingPolicy> all = SchedulingPolicy.allStatic();
        assertEquals(SchedulingPolicy.STATIC_COUNT, all.size());
        final Set<String> names = new HashSet<>();
        for (final SchedulingPolicy policy : all)
        {
            assertTrue(names.add(policy.name()), "duplicate " + policy.name());
            assertEquals(policy, SchedulingPolicy.parse(policy.name()));
            assertEquals(policy, SchedulingPolicy.ofIndex(policy.index()));
        }
        assertTrue(names.containsAll(List.of("bfs/op/eager", "dfs/group/lazy", "random/op/lazy", "random/group/eager")));
    }

    @Test
    void shouldComposeEachPolicyFromItsThreeDimensions()
    {
        final SchedulingPolicy policy = SchedulingPolicy.parse("dfs/group/lazy");
        assertTrue(policy.exploration() instanceof DepthFirstExploration);
        assertTrue(policy.granularity() instanceof OperationGroupGranularity);
        assertTrue(policy.abortHandling() instanceof LazyAbort);
    }

    @Test
    void shouldAcceptTheLongFormsOfTheNames()
    {
        assertEquals(SchedulingPolicy.parse("bfs/op/eager"), SchedulingPolicy.parse("breadth-first/single-operation/eager-abort"));
    }

    @Test
    void shouldRejectAnUnknownNameSayingWhatIsAllowed()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SchedulingPolicy.parse("sideways/op/eager"));
        assertTrue(e.getMessage().contains("sideways"), e.getMessage());
    }
}
