package io.transnfv.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The owner pushes two units and takes one back (LIFO) while a thief steals from the top; the
 * arbiter then drains what is left. Every unit must be taken exactly once, and a thief
 * must never read a cell before its push published it (it would see a stale 0). r1: takes
 * that returned a unit twice or a unit never pushed; r2: units nobody took. Run by
 * {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "every unit taken exactly once")
@Outcome(expect = FORBIDDEN, desc = "a unit taken twice, a stale cell read, or a unit lost")
@State
public class PushWhileStealingRace
{
    private final ReadyDeques deques = new ReadyDeques(2);
    private int ownerTook;
    private int thiefTook;

    public PushWhileStealingRace()
    {
        deques.reset(8, true);
    }

    @Actor
    public void owner()
    {
        deques.push(0, 1);
        deques.push(0, 2);
        ownerTook = deques.takeBottom(0);
    }

    @Actor
    public void thief()
    {
        thiefTook = deques.takeTop(0);
    }

    @Arbiter
    public void drain(final II_Result r)
    {
        final int[] taken = new int[3];
        int wrong = 0;
        wrong += count(taken, ownerTook);
        wrong += count(taken, thiefTook);
        for (int unit = deques.takeTop(0); unit != ReadyDeques.EMPTY; unit = deques.takeTop(0))
        {
            wrong += count(taken, unit);
        }
        for (int unit = 1; unit <= 2; unit++)
        {
            if (taken[unit] > 1)
            {
                wrong += taken[unit] - 1;
            }
        }
        r.r1 = wrong;
        r.r2 = (taken[1] == 0 ? 1 : 0) + (taken[2] == 0 ? 1 : 0);
    }

    /** @return 1 if {@code result} is a unit that was never pushed, else 0 (and counts it). */
    private static int count(final int[] taken, final int result)
    {
        if (result == ReadyDeques.EMPTY || result == ReadyDeques.CONTENDED)
        {
            return 0;
        }
        if (result != 1 && result != 2)
        {
            return 1;
        }
        taken[result]++;
        return 0;
    }
}
