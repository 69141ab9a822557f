package io.transnfv.engine.report;

import java.util.List;
import java.util.Objects;

/**
 * What the chain's state checkers found on committed state ({@code StateChecker}): the
 * {@code checkers} section of a {@link RunReport}. Immutable.
 *
 * @param checkers   the checkers that ran, each {@code <vnf>.<checker>}, in the chain's order.
 * @param when       when they ran, e.g. {@code every 1000 ms of packet time and at the end}.
 * @param checks     times the state was checked: each punctuation the chain asked for, and the end of the run.
 * @param violations each violated checker, in the order first found; empty if all held.
 */
public record CheckerReport(List<String> checkers, String when, long checks, List<Violation> violations)
{
    /** Freezes the lists. */
    public CheckerReport
    {
        checkers = List.copyOf(checkers);
        Objects.requireNonNull(when, "when");
        violations = List.copyOf(violations);
    }

    /**
     * One violated checker.
     *
     * @param vnf          the VNF instance's name.
     * @param checker      the checker's name ({@code check-failed} if a check itself threw).
     * @param count        violations reported, over every check.
     * @param firstKey     the first violation's key, in hexadecimal as alert subjects are.
     * @param firstMessage the first violation's message.
     * @param firstSeen    the check that first reported it: {@code the end of the run}, or
     *                     {@code the check before packet #<sequence>}.
     * @param keys         the keys reported with their number of violations, most reported first; at most
     *                     {@link RunStats#MAX_ALERT_SUBJECTS}.
     */
    public record Violation(String vnf, String checker, long count, String firstKey, String firstMessage, String firstSeen,
                            List<RunReport.AlertSubject> keys)
    {
        /** Checks the fields and freezes the list. */
        public Violation
        {
            Objects.requireNonNull(vnf, "vnf");
            Objects.requireNonNull(checker, "checker");
            Objects.requireNonNull(firstKey, "firstKey");
            Objects.requireNonNull(firstMessage, "firstMessage");
            Objects.requireNonNull(firstSeen, "firstSeen");
            keys = List.copyOf(keys);
        }

        /** @return this violation as the alert it raises: type {@code checker:<name>} of its VNF, about its keys. */
        public RunReport.AlertReport alert()
        {
            return new RunReport.AlertReport(vnf, "checker:" + checker, count, keys, keys.size() >= RunStats.MAX_ALERT_SUBJECTS);
        }
    }

    /** @return true if every checker held. */
    public boolean held()
    {
        return violations.isEmpty();
    }

    /** @return violations reported in all, over every checker. */
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
