package io.transnfv.tpg.graph;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A single-operation unit with two dependencies resolved by two executors at once: exactly
 * one of them, the last, hands the operation out. Run by {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "the last resolver hands the operation out")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "the operation is never handed out")
@Outcome(id = "true, true", expect = FORBIDDEN, desc = "the operation is handed out twice")
@State
public class ConcurrentResolvesRace
{
    private final OperationStateMachine machine = new OperationStateMachine();

    public ConcurrentResolvesRace()
    {
        machine.beginBatch(1, true, true);
        machine.set(0, 2);
    }

    @Actor
    public void oneResolver(final ZZ_Result r)
    {
        r.r1 = machine.resolveDependency(0);
    }

    @Actor
    public void otherResolver(final ZZ_Result r)
    {
        r.r2 = machine.resolveDependency(0);
    }
}
