package io.transnfv.engine.chain;

import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.engine.source.GeneratorConfig;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a chain runs. Every setting has its default here; the YAML {@code settings:} block
 * and command-line flags override them.
 *
 * @param punctuationTransactions a punctuation closes a batch after this many transactions.
 * @param punctuationIntervalNs   ... or after this much packet time, whichever comes first.
 * @param executorThreads         executor threads; 0 means one per available core.
 * @param traffic                 the packet source.
 * @param outPcap                 where forwarded packets are written, or null for nowhere.
 * @param latencyTargetNs         the latency the engine sizes its batches for, 0 for none (the
 *                                batch size and interval are then the only limits).
 * @param fragments               how the chain's entry tracks IP fragments.
 * @param faults                  the error bound and the batch deadline.
 * @param checkpoint              checkpoints at batch boundaries (YAML {@code checkpoint:}), or null for none.
 * @param checkers                which of the VNFs' state checkers run, and when (YAML {@code checkers:}).
 * @param http                    where {@code transnfv run} serves the run's HTTP control plane (YAML
 *                                {@code http:}, {@code --http}), or null for nowhere.
 * @param stores                  where the tables' committed state lives (heap, Chronicle Map, Redis).
 */
public record RunSettings(
    int punctuationTransactions, long punctuationIntervalNs, int executorThreads, TrafficSpec traffic, Path outPcap,
    long latencyTargetNs, FragmentSettings fragments, FaultSettings faults, CheckpointSettings checkpoint,
    CheckerSettings checkers, HttpAddress http, StoreSettings stores)
{
    /**
     * The most executor threads a chain may ask for, in YAML, on the command line and in
     * experiments alike; far beyond any core count, it only stops a typo from starting
     * thousands of threads.
     */
    public static final int MAX_EXECUTOR_THREADS = 4096;

    /**
     * Default batch size in transactions: the throughput of batches of 256 at a fifth of their p99
     * on two cores (PERFORMANCE.md, "Batch size"); smaller batches keep the packets in flight in
     * the core's cache, larger ones only add waiting.
     */
    public static final int DEFAULT_PUNCTUATION_TRANSACTIONS = 64;
    /** Default batch interval in packet time: 1 ms. */
    public static final long DEFAULT_PUNCTUATION_INTERVAL_NS = 1_000_000L;

    /** Validates the settings. */
    public RunSettings
    {
        Objects.requireNonNull(traffic, "traffic");
        Objects.requireNonNull(fragments, "fragments");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(stores, "stores");
        Objects.requireNonNull(checkers, "checkers");
        if (punctuationTransactions < 1)
        {
            throw new IllegalArgumentException("punctuation transactions must be >= 1: " + punctuationTransactions);
        }
        if (punctuationIntervalNs < 1)
        {
            throw new IllegalArgumentException("punctuation interval must be > 0: " + punctuationIntervalNs);
        }
        if (executorThreads < 0 || executorThreads > MAX_EXECUTOR_THREADS)
        {
            throw new IllegalArgumentException("executor threads must be in 0.." + MAX_EXECUTOR_THREADS + ": " + executorThreads);
        }
        if (latencyTargetNs < 0)
        {
            throw new IllegalArgumentException("latency target must be >= 0: " + latencyTargetNs);
        }
    }

    /** Settings without a control plane, with every table in the heap. */
    public RunSettings(
        final int punctuationTransactions, final long punctuationIntervalNs, final int executorThreads, final TrafficSpec traffic,
        final Path outPcap, final long latencyTargetNs, final FragmentSettings fragments, final FaultSettings faults,
        final CheckpointSettings checkpoint, final CheckerSettings checkers)
    {
        this(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs, fragments, faults,
            checkpoint, checkers, null, StoreSettings.defaults());
    }

    /** Settings with the default fragment tracking and fault handling, without checkpoints. */
    public RunSettings(
        final int punctuationTransactions, final long punctuationIntervalNs, final int executorThreads, final TrafficSpec traffic,
        final Path outPcap, final long latencyTargetNs)
    {
        this(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            FragmentSettings.defaults(), FaultSettings.defaults(), null, CheckerSettings.defaults());
    }

    /** Settings without a latency target, with the default fragment tracking and fault handling. */
    public RunSettings(
        final int punctuationTransactions, final long punctuationIntervalNs, final int executorThreads, final TrafficSpec traffic,
        final Path outPcap)
    {
        this(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, 0L);
    }

    /** @return the defaults: generated traffic with default parameters, no output file. */
    public static RunSettings defaults()
    {
        return new RunSettings(DEFAULT_PUNCTUATION_TRANSACTIONS, DEFAULT_PUNCTUATION_INTERVAL_NS, 0,
            TrafficSpec.generate(GeneratorConfig.defaults()), null);
    }

    /** @return the number of executor threads to start (resolves 0 to the core count). */
    public int resolvedExecutorThreads()
    {
        return executorThreads == 0 ? Runtime.getRuntime().availableProcessors() : executorThreads;
    }

    /** @return a copy with other traffic. */
    public RunSettings withTraffic(final TrafficSpec newTraffic)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, newTraffic, outPcap, latencyTargetNs, fragments, faults, checkpoint, checkers, http, stores);
    }

    /** @return a copy with another output file (null for none). */
    public RunSettings withOutPcap(final Path file)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, file, latencyTargetNs, fragments, faults, checkpoint, checkers, http, stores);
    }

    /** @return a copy with other punctuation settings. */
    public RunSettings withPunctuation(final int transactions, final long intervalNs)
    {
        return new RunSettings(transactions, intervalNs, executorThreads, traffic, outPcap, latencyTargetNs, fragments, faults, checkpoint, checkers, http, stores);
    }

    /** @return a copy with another executor thread count. */
    public RunSettings withExecutorThreads(final int threads)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, threads, traffic, outPcap, latencyTargetNs, fragments, faults, checkpoint, checkers, http, stores);
    }

    /** @return a copy with other checkpoint settings (null for none). */
    public RunSettings withCheckpoint(final CheckpointSettings settings)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            fragments, faults, settings, checkers, http, stores);
    }

    /** @return a copy whose state checkers are {@code newCheckers}. */
    public RunSettings withCheckers(final CheckerSettings newCheckers)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            fragments, faults, checkpoint, newCheckers, http, stores);
    }

    /** @return a copy with another latency target (0 for none). */
    public RunSettings withLatencyTarget(final long targetNs)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, targetNs, fragments, faults, checkpoint, checkers, http, stores);
    }

    /** @return a copy with other fragment tracking settings. */
    public RunSettings withFragments(final FragmentSettings newFragments)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            newFragments, faults, checkpoint, checkers, http, stores);
    }

    /** @return a copy with other fault handling. */
    public RunSettings withFaults(final FaultSettings newFaults)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            fragments, newFaults, checkpoint, checkers, http, stores);
    }

    /** @return a copy served by the HTTP control plane at {@code address} (null for none). */
    public RunSettings withHttp(final HttpAddress address)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            fragments, faults, checkpoint, checkers, address, stores);
    }

    /** @return a copy with other state stores. */
    public RunSettings withStores(final StoreSettings newStores)
    {
        return new RunSettings(punctuationTransactions, punctuationIntervalNs, executorThreads, traffic, outPcap, latencyTargetNs,
            fragments, faults, checkpoint, checkers, http, newStores);
    }
}
