package io.transnfv.engine.report;

import java.util.List;
import java.util.Objects;

/**
 * What the chain's invariant checks found on committed state ({@code Vnf.checkInvariants}):
 * the {@code invariants} section of a {@link RunReport}. Immutable.
 *
 * @param vnfsChecked VNF instances whose invariants were checked.
 * @param checks      times the state was checked: the end of the run, and every housekeeping tick
 *                    with {@code invariants: ticks}.
 * @param violations  each broken invariant, in the order first found; empty if all held.
 */
public record InvariantReport(int vnfsChecked, long checks, List<Violation> violations)
{
    /** Freezes the list. */
    public InvariantReport
    {
        violations = List.copyOf(violations);
    }

    /**
     * One broken invariant.
     *
     * @param vnf         the VNF instance's name.
     * @param invariant   the invariant's name ({@code check-failed} if the check itself threw).
     * @param count       how many times it was reported, over every check.
     * @param firstDetail the first report's detail.
     * @param firstSeen   the check that first reported it: {@code the end of the run}, or {@code the tick at <packet time> ms}.
     */
    public record Violation(String vnf, String invariant, long count, String firstDetail, String firstSeen)
    {
        /** Checks the fields. */
        public Violation
        {
            Objects.requireNonNull(vnf, "vnf");
            Objects.requireNonNull(invariant, "invariant");
            Objects.requireNonNull(firstDetail, "firstDetail");
            Objects.requireNonNull(firstSeen, "firstSeen");
        }
    }

    /** @return true if every invariant held. */
    public boolean held()
    {
        return violations.isEmpty();
    }

    /** @return violations reported in all, over every invariant. */
    public long violationCount()
    {
        long n = 0;
        for (final Violation v : violations)
        {
            n += v.count();
        }
        return n;
    }
}
