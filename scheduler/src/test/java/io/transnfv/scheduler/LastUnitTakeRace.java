package io.transnfv.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The owner takes the last unit of its deque from the bottom while a thief steals it from
 * the top: exactly one of them gets it, and the deque is empty afterwards (the arbiter's
 * take finds nothing). Run by {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = {"7, -1, -1", "7, -2, -1"}, expect = ACCEPTABLE, desc = "the owner wins; the thief finds it empty or loses the race")
@Outcome(id = "-1, 7, -1", expect = ACCEPTABLE, desc = "the thief wins; the owner finds it empty")
@Outcome(expect = FORBIDDEN, desc = "the unit is taken twice, lost, or left behind")
@State
public class LastUnitTakeRace
{
    private final ReadyDeques deques = new ReadyDeques(2);

    public LastUnitTakeRace()
    {
        deques.reset(4, true);
        deques.seed(0, 7);
    }

    @Actor
    public void ownerTakesBottom(final III_Result r)
    {
        r.r1 = deques.takeBottom(0);
    }

    @Actor
    public void thiefTakesTop(final III_Result r)
    {
        r.r2 = deques.takeTop(0);
    }

    @Arbiter
    public void leftBehind(final III_Result r)
    {
        r.r3 = deques.takeTop(0);
    }
}
