package io.transnfv.tpg.graph;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An operation with two unresolved dependencies: one is resolved while a unit parks there
 * (the park's compare-and-set must survive the concurrent decrement), the other afterwards.
 * The unit must be parked, the first resolver must not hand it out, and the second must.
 * r1: the first resolver hands out; r2: the unit parked; r3: the second resolver hands out.
 * Run by {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = "false, true, true", expect = ACCEPTABLE, desc = "parked; the last resolver hands the unit out")
@Outcome(expect = FORBIDDEN, desc = "the unit is lost, runs early, or resumes twice")
@State
public class ParkBetweenTwoResolvesRace
{
    private final OperationStateMachine machine = new OperationStateMachine();

    public ParkBetweenTwoResolvesRace()
    {
        machine.beginBatch(1, true, false);
        machine.set(0, 2);
    }

    @Actor
    public void firstDependencyResolves(final ZZZ_Result r)
    {
        r.r1 = machine.resolveDependency(0);
    }

    @Actor
    public void unitReachesOperation(final ZZZ_Result r)
    {
        r.r2 = machine.park(0);
    }

    @Arbiter
    public void secondDependencyResolves(final ZZZ_Result r)
    {
        r.r3 = machine.resolveDependency(0);
    }
}
