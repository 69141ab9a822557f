package io.transnfv.engine.thread;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two workers enter a released phase of two pieces of work, claim what they can and leave:
 * exactly one of them closes the phase and runs its transition, and the transition sees every
 * piece's result (written with plain stores inside the phase). r1: transitions run; r2: 1 if
 * the closer saw both results. Run by {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "closed once, after all the work, which the closer sees")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "never closed: the batch would hang")
@Outcome(id = "2, 1", expect = FORBIDDEN, desc = "closed twice: the next phase would open twice")
@Outcome(expect = FORBIDDEN, desc = "closed before the work was done or without seeing it")
@State
public class PhaseCloseRace
{
    private static final int PIECES = 2;

    private final TwoPieces phase = new TwoPieces();
    private final AtomicInteger transitions = new AtomicInteger();
    private volatile boolean closerSawAll;

    public PhaseCloseRace()
    {
        phase.open(2, worker ->
        {
            closerSawAll = phase.results[0] == 10 && phase.results[1] == 11;
            transitions.incrementAndGet();
            return null;
        });
        phase.release();
    }

    @Actor
    public void firstWorker()
    {
        runWorker(0);
    }

    @Actor
    public void secondWorker()
    {
        runWorker(1);
    }

    private void runWorker(final int worker)
    {
        if (phase.tryEnter())
        {
            phase.work(worker);
            final Phase.Transition then = phase.leave();
            if (then != null)
            {
                then.next(worker);
            }
        }
    }

    @Arbiter
    public void outcome(final II_Result r)
    {
        r.r1 = transitions.get();
        r.r2 = closerSawAll ? 1 : 0;
    }

    /** A phase of two pieces, claimed by counter; each writes its result with a plain store. */
    private static final class TwoPieces extends Phase
    {
        final int[] results = new int[PIECES];
        private final AtomicInteger claimed = new AtomicInteger();
        private final AtomicInteger done = new AtomicInteger();

        TwoPieces()
        {
            super(TimeCategory.EXECUTE);
        }

        @Override
        protected boolean work(final int worker)
        {
            boolean did = false;
            for (int piece = claimed.getAndIncrement(); piece < PIECES; piece = claimed.getAndIncrement())
            {
                results[piece] = 10 + piece;
                done.incrementAndGet();
                did = true;
            }
            return did;
        }

        @Override
        protected boolean isComplete()
        {
            return done.get() == PIECES;
        }

        @Override
        protected boolean hasClaimableWork()
        {
            return claimed.get() < PIECES;
        }
    }
}
