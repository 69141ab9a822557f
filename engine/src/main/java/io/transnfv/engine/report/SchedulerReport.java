package io.transnfv.engine.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the transactional engine reports about how it scheduled a run: the strategy, the
 * decisions taken per graph and why, where the executors' time went, and what was executed
 * and aborted. The {@code scheduler} section of a {@link RunReport}.
 *
 * <p>A batch executor fills the fields it knows ({@code BatchExecutor.summary()}); the chain
 * executor adds {@link #batches()} and {@link #pipelined()}. Built with a {@link Builder}, so
 * a field is added in three places: a component with its javadoc, a builder method, and
 * its line in {@link RunReport#toText()} and {@code docs/run-report.schema.json} (the
 * schema test fails on a field the schema does not know). Immutable; built off the hot
 * path, at the end of a run.
 *
 * @param strategy              the strategy name, e.g. {@code adaptive} or {@code dfs/group/lazy}.
 * @param executorThreads       threads executing graphs, the coordinating thread included.
 * @param pipelined             whether a driver thread pre-processed the next batch meanwhile.
 * @param batches               batches the chain executor closed (punctuations); 0 outside a chain.
 * @param graphs                task precedence graphs executed: one per VNF stage a batch reached.
 * @param decisions             graphs per scheduling policy chosen, in policy order.
 * @param reasons               graphs per rule of the decision model that chose the policy.
 * @param timeBreakdownNsPerOp  executor time per operation by category, in the order measured.
 * @param operationsExecuted    operations executed, re-executions included.
 * @param operationsReExecuted  operations executed again after an abort (lazy abort handling).
 * @param transactionsAborted   transactions aborted.
 */
public record SchedulerReport(
    String strategy,
    int executorThreads,
    boolean pipelined,
    long batches,
    long graphs,
    List<Decision> decisions,
    List<Reason> reasons,
    List<TimeShare> timeBreakdownNsPerOp,
    long operationsExecuted,
    long operationsReExecuted,
    long transactionsAborted)
{
    /** Checks the fields and freezes the lists. */
    public SchedulerReport
    {
        Objects.requireNonNull(strategy, "strategy");
        decisions = List.copyOf(decisions);
        reasons = List.copyOf(reasons);
        timeBreakdownNsPerOp = List.copyOf(timeBreakdownNsPerOp);
    }

    /**
     * @param policy the policy, e.g. {@code bfs/op/lazy}.
     * @param graphs graphs it ran.
     */
    public record Decision(String policy, long graphs)
    {
    }

    /**
     * @param reason the decision model's rule, e.g. {@code short-chains/rare-aborts}.
     * @param graphs graphs whose policy it chose.
     */
    public record Reason(String reason, long graphs)
    {
    }

    /**
     * @param category where the time went, e.g. {@code useful}, {@code sync}, {@code construct}.
     * @param nsPerOp  executor nanoseconds per operation.
     */
    public record TimeShare(String category, double nsPerOp)
    {
    }

    /** @return a builder with every count 0 and every list empty. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** @return a builder holding this report, to add what another layer knows. */
    public Builder toBuilder()
    {
        final Builder b = new Builder()
            .strategy(strategy)
            .executorThreads(executorThreads)
            .pipelined(pipelined)
            .batches(batches)
            .graphs(graphs)
            .operationsExecuted(operationsExecuted)
            .operationsReExecuted(operationsReExecuted)
            .transactionsAborted(transactionsAborted);
        b.decisions.addAll(decisions);
        b.reasons.addAll(reasons);
        b.timeBreakdown.addAll(timeBreakdownNsPerOp);
        return b;
    }

    /** Collects a {@link SchedulerReport}; lists keep the order entries are added in. Not thread-safe. */
    public static final class Builder
    {
        private String strategy;
        private int executorThreads;
        private boolean pipelined;
        private long batches;
        private long graphs;
        private final List<Decision> decisions = new ArrayList<>();
        private final List<Reason> reasons = new ArrayList<>();
        private final List<TimeShare> timeBreakdown = new ArrayList<>();
        private long operationsExecuted;
        private long operationsReExecuted;
        private long transactionsAborted;

        private Builder()
        {
        }

        /** @return this builder; see {@link SchedulerReport#strategy()}. */
        public Builder strategy(final String name)
        {
            strategy = name;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#executorThreads()}. */
        public Builder executorThreads(final int threads)
        {
            executorThreads = threads;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#pipelined()}. */
        public Builder pipelined(final boolean isPipelined)
        {
            pipelined = isPipelined;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#batches()}. */
        public Builder batches(final long count)
        {
            batches = count;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#graphs()}. */
        public Builder graphs(final long count)
        {
            graphs = count;
            return this;
        }

        /** @return this builder, with {@code graphs} run under {@code policy} added to the decisions. */
        public Builder decision(final String policy, final long graphCount)
        {
            decisions.add(new Decision(policy, graphCount));
            return this;
        }

        /** @return this builder, with {@code graphs} whose policy {@code reason} chose added to the reasons. */
        public Builder reason(final String reason, final long graphCount)
        {
            reasons.add(new Reason(reason, graphCount));
            return this;
        }

        /** @return this builder, with the time per operation of {@code category} added to the breakdown. */
        public Builder timeShare(final String category, final double nsPerOp)
        {
            timeBreakdown.add(new TimeShare(category, nsPerOp));
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#operationsExecuted()}. */
        public Builder operationsExecuted(final long count)
        {
            operationsExecuted = count;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#operationsReExecuted()}. */
        public Builder operationsReExecuted(final long count)
        {
            operationsReExecuted = count;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#transactionsAborted()}. */
        public Builder transactionsAborted(final long count)
        {
            transactionsAborted = count;
            return this;
        }

        /** @return the report. */
        public SchedulerReport build()
        {
            return new SchedulerReport(strategy, executorThreads, pipelined, batches, graphs, decisions, reasons,
                timeBreakdown, operationsExecuted, operationsReExecuted, transactionsAborted);
        }
    }
}
