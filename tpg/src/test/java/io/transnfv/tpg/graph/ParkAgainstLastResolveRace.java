package io.transnfv.tpg.graph;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An operation group's unit reaches an operation with one unresolved dependency while another
 * executor resolves that dependency: exactly one of them must carry on with the unit. Run by
 * {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "the unit parked; the last resolver hands it out")
@Outcome(id = "false, false", expect = ACCEPTABLE, desc = "resolved first; the unit runs on, the resolver hands nothing out")
@Outcome(id = "true, false", expect = FORBIDDEN, desc = "the unit is lost: parked, and nobody hands it out")
@Outcome(id = "false, true", expect = FORBIDDEN, desc = "the unit runs twice: on its own executor and handed out")
@State
public class ParkAgainstLastResolveRace
{
    private final OperationStateMachine machine = new OperationStateMachine();

    public ParkAgainstLastResolveRace()
    {
        machine.beginBatch(1, true, false);
        machine.set(0, 1);
    }

    @Actor
    public void unitReachesOperation(final ZZ_Result r)
    {
        r.r1 = machine.park(0);
    }

    @Actor
    public void dependencyResolves(final ZZ_Result r)
    {
        r.r2 = machine.resolveDependency(0);
    }
}
