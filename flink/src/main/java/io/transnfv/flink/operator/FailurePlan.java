package io.transnfv.flink.operator;

import java.io.Serializable;
import java.util.List;

/**
 * Failures to inject into a run, for the tests of exactly-once: point {@code j} fires in the
 * job's attempt {@code j} (attempt 0 is the first run, attempt 1 the first restart, ...), so
 * each fires once however the restarts fall. Empty in a real run.
 *
 * @param points the failures, in attempt order.
 */
public record FailurePlan(List<Point> points) implements Serializable
{
    private static final long serialVersionUID = 1L;

    /** No failures. */
    public static final FailurePlan NONE = new FailurePlan(List.of());

    /** Copies the list. */
    public FailurePlan
    {
        points = List.copyOf(points);
    }

    /** Where in the operator a failure is thrown. */
    public enum Where
    {
        /**
         * In {@code processElement}, before the subtask's {@code batch}-th batch (counted over the
         * whole run, from 0) reaches the engine, or the first batch after a restore past it.
         */
        BATCH,
        /** In {@code snapshotState}, at the first checkpoint once the subtask has taken {@code batch} batches. */
        SNAPSHOT,
        /** In {@code initializeState}, when the subtask restores from a checkpoint. */
        RESTORE
    }

    /**
     * One failure.
     *
     * @param where   where it is thrown.
     * @param subtask the subtask that throws it.
     * @param batch   for {@link Where#BATCH} and {@link Where#SNAPSHOT}: the subtask's batch count it fires at.
     */
    public record Point(Where where, int subtask, long batch) implements Serializable
    {
        private static final long serialVersionUID = 1L;
    }

    /** @return the point to fire in {@code attempt} at {@code where} on {@code subtask} with {@code batches} taken, or null. */
    Point due(final int attempt, final Where where, final int subtask, final long batches)
    {
        if (attempt >= points.size())
        {
            return null;
        }
        final Point p = points.get(attempt);
        return p.where() == where && p.subtask() == subtask && batches >= p.batch() ? p : null;
    }

    /** What an injected failure throws: recognisable in the job's exception history. */
    public static final class InjectedFailure extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        InjectedFailure(final Point point, final int attempt)
        {
            super("injected failure " + point + " in attempt " + attempt);
        }
    }
}
