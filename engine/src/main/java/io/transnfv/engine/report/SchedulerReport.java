package io.transnfv.engine.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the transactional engine reports about how it ran: the strategy and the decisions
 * taken per graph and why, how batches were punctuated, where the workers' time went (per
 * packet, on the thread where it was spent), what each worker allocated, and what was
 * executed and aborted. The {@code scheduler} section of a {@link RunReport}.
 *
 * <p>A batch executor fills the fields it knows ({@code BatchExecutor.summary()}); the chain
 * executor adds the batches, the punctuation, the time breakdown and the threads. Built with a
 * {@link Builder}, so a field is added in three places: a component with its javadoc, a builder
 * method, and its line in {@link RunReport#toText()} and {@code docs/run-report.schema.json}
 * (the schema test fails on a field the schema does not know). Immutable; built off the hot
 * path, at the end of a run.
 *
 * @param strategy                the strategy name, e.g. {@code adaptive} or {@code dfs/group/lazy}.
 * @param workers                 worker threads of the engine (every one reads, processes and executes).
 * @param batches                 batches the chain executor closed (punctuations); 0 outside a chain.
 * @param graphs                  task precedence graphs executed: one per VNF stage a batch reached.
 * @param decisions               graphs per scheduling policy chosen, in policy order.
 * @param reasons                 graphs per rule of the decision model that chose the policy.
 * @param punctuation             how batches were closed, or null outside a chain.
 * @param engagement              how many workers polled as the load changed, or null outside a chain.
 * @param timeNsPerPacket         worker time per packet by category, summed over the workers.
 * @param threads                 per worker: its time per packet by category and what it allocated.
 * @param operationsExecuted      operations executed, re-executions included.
 * @param operationsReExecuted    operations executed again after an abort (lazy abort handling).
 * @param transactionsAborted     transactions aborted.
 * @param independentTransactions transactions no other one of their batch touched a key of: run
 *                                in place, outside the schedule.
 * @param stateGrowthBytesPerPacket bytes per packet the state tables took to grow during the run
 *                                (part of the threads' allocation: the rest is garbage), -1 if unknown.
 */
public record SchedulerReport(
    String strategy,
    int workers,
    long batches,
    long graphs,
    List<Decision> decisions,
    List<Reason> reasons,
    PunctuationReport punctuation,
    EngagementReport engagement,
    List<TimeShare> timeNsPerPacket,
    List<ThreadReport> threads,
    long operationsExecuted,
    long operationsReExecuted,
    long transactionsAborted,
    long independentTransactions,
    double stateGrowthBytesPerPacket)
{
    /** Checks the fields and freezes the lists. */
    public SchedulerReport
    {
        Objects.requireNonNull(strategy, "strategy");
        decisions = List.copyOf(decisions);
        reasons = List.copyOf(reasons);
        timeNsPerPacket = List.copyOf(timeNsPerPacket);
        threads = List.copyOf(threads);
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
     * @param category    where the time went, e.g. {@code build}, {@code execute}, {@code hand-off wait}.
     * @param nsPerPacket worker nanoseconds per packet.
     */
    public record TimeShare(String category, double nsPerPacket)
    {
    }

    /**
     * @param reason  why batches closed, e.g. {@code size}, {@code idle-input}, {@code engine-idle}.
     * @param batches batches closed for it.
     */
    public record CloseReason(String reason, long batches)
    {
    }

    /**
     * How the punctuation closed batches, and, with a latency target, how it sized them.
     *
     * @param closedBy               batches per close reason.
     * @param meanBatchPackets       packets per batch on average.
     * @param batchSizeLimit         the configured batch size (transactions at the entry VNF).
     * @param intervalNs             the configured packet-time interval.
     * @param latencyTargetNs        the latency target, 0 for none.
     * @param ageLimitNs             the wall-clock age of a batch's first packet that closes it, 0 for none.
     * @param adaptiveBatchLimitMin  with a target: the smallest batch limit chosen, else 0.
     * @param adaptiveBatchLimitMax  with a target: the largest batch limit chosen, else 0.
     * @param processingNsPerPacket  with a target: the measured processing time per packet it sized by, else 0.
     */
    public record PunctuationReport(
        List<CloseReason> closedBy, double meanBatchPackets, int batchSizeLimit, long intervalNs, long latencyTargetNs,
        long ageLimitNs, int adaptiveBatchLimitMin, int adaptiveBatchLimitMax, long processingNsPerPacket)
    {
        /** Freezes the list. */
        public PunctuationReport
        {
            closedBy = List.copyOf(closedBy);
        }
    }

    /**
     * How many workers polled for work: all while packets waited, one while the input kept
     * running dry (the other cores left to the rest of the machine).
     *
     * @param workers        the run's workers.
     * @param adaptive       false if every worker stayed engaged whatever the load.
     * @param shareOnOne     share of the batches that ran with one worker engaged.
     * @param widened        times every worker was engaged again because packets were waiting.
     * @param narrowed       times the engine went down to one worker after a run of small batches.
     */
    public record EngagementReport(int workers, boolean adaptive, double shareOnOne, long widened, long narrowed)
    {
    }

    /**
     * @param name                    the thread's name.
     * @param busyNsPerPacket         its time per packet in every category but waiting and idle.
     * @param allocatedBytesPerPacket bytes it allocated per packet over the run, or -1 if the JVM cannot tell.
     * @param timeNsPerPacket         its time per packet by category.
     */
    public record ThreadReport(String name, double busyNsPerPacket, double allocatedBytesPerPacket, List<TimeShare> timeNsPerPacket)
    {
        /** Freezes the list. */
        public ThreadReport
        {
            timeNsPerPacket = List.copyOf(timeNsPerPacket);
        }
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
            .workers(workers)
            .batches(batches)
            .graphs(graphs)
            .punctuation(punctuation)
            .engagement(engagement)
            .operationsExecuted(operationsExecuted)
            .operationsReExecuted(operationsReExecuted)
            .transactionsAborted(transactionsAborted)
            .independentTransactions(independentTransactions)
            .stateGrowthBytesPerPacket(stateGrowthBytesPerPacket);
        b.decisions.addAll(decisions);
        b.reasons.addAll(reasons);
        b.timeNsPerPacket.addAll(timeNsPerPacket);
        b.threads.addAll(threads);
        return b;
    }

    /** Collects a {@link SchedulerReport}; lists keep the order entries are added in. Not thread-safe. */
    public static final class Builder
    {
        private String strategy;
        private int workers;
        private long batches;
        private long graphs;
        private final List<Decision> decisions = new ArrayList<>();
        private final List<Reason> reasons = new ArrayList<>();
        private PunctuationReport punctuation;
        private EngagementReport engagement;
        private final List<TimeShare> timeNsPerPacket = new ArrayList<>();
        private final List<ThreadReport> threads = new ArrayList<>();
        private long operationsExecuted;
        private long operationsReExecuted;
        private long transactionsAborted;
        private long independentTransactions;
        private double stateGrowthBytesPerPacket = -1;

        private Builder()
        {
        }

        /** @return this builder; see {@link SchedulerReport#strategy()}. */
        public Builder strategy(final String name)
        {
            strategy = name;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#workers()}. */
        public Builder workers(final int count)
        {
            workers = count;
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

        /** @return this builder; see {@link SchedulerReport#punctuation()}. */
        public Builder punctuation(final PunctuationReport report)
        {
            punctuation = report;
            return this;
        }

        /** @return this builder, with the time per packet of {@code category} added to the breakdown. */
        public Builder timeShare(final String category, final double nsPerPacket)
        {
            timeNsPerPacket.add(new TimeShare(category, nsPerPacket));
            return this;
        }

        /** @return this builder, with a worker's figures added. */
        public Builder thread(final ThreadReport thread)
        {
            threads.add(thread);
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

        /** @return this builder; see {@link SchedulerReport#independentTransactions()}. */
        public Builder independentTransactions(final long count)
        {
            independentTransactions = count;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#engagement()}. */
        public Builder engagement(final EngagementReport report)
        {
            engagement = report;
            return this;
        }

        /** @return this builder; see {@link SchedulerReport#stateGrowthBytesPerPacket()}. */
        public Builder stateGrowthBytesPerPacket(final double bytes)
        {
            stateGrowthBytesPerPacket = bytes;
            return this;
        }

        /** @return the report. */
        public SchedulerReport build()
        {
            return new SchedulerReport(strategy, workers, batches, graphs, decisions, reasons, punctuation, engagement, timeNsPerPacket,
                threads, operationsExecuted, operationsReExecuted, transactionsAborted, independentTransactions,
                stateGrowthBytesPerPacket);
        }
    }
}
