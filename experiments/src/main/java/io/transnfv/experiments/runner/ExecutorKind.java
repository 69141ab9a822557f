package io.transnfv.experiments.runner;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.experiments.baselines.ChcStyleChainExecutor;
import io.transnfv.experiments.baselines.NoLockChainExecutor;
import io.transnfv.experiments.baselines.PartitionedChainExecutor;

/** The executors an experiment compares: the engine and its baselines. */
public enum ExecutorKind
{
    /** The engine: punctuation batches, TPG, parallel executor threads. */
    TRANSNFV("transnfv"),
    /** CHC-style: per-flow state at the owning instance, cross-flow state behind per-key locks. */
    CHC_STYLE("chc-style"),
    /** No synchronisation, no ordering: the speed limit, possibly wrong. */
    NO_LOCK("no-lock"),
    /** FlexState-style: state split per executor, no sharing. */
    PARTITIONED("partitioned"),
    /** The serial oracle. */
    SERIAL("serial");

    private final String label;

    ExecutorKind(final String label)
    {
        this.label = label;
    }

    /** @return the name used in CSV, plots and flags. */
    public String label()
    {
        return label;
    }

    /** An executor ready to run. */
    public record Created(ChainExecutor executor)
    {
    }

    /**
     * @param chain       the chain, its punctuation and thread count already set.
     * @param threads     executor threads (the engine) or workers (the parallel baselines).
     * @param keyCapacity slots per table of the preallocated shared stores, a power of two.
     * @return a new executor of this kind.
     */
    public Created create(final ChainSpec chain, final int threads, final int keyCapacity)
    {
        return switch (this)
        {
            case TRANSNFV ->
            {
                final ChainSpec withThreads = chain.withSettings(chain.settings().withExecutorThreads(threads));
                yield new Created(new BatchedChainExecutor(withThreads, TpgBatchExecutor::new, "transnfv"));
            }
            case CHC_STYLE -> new Created(new ChcStyleChainExecutor(chain, threads, keyCapacity));
            case NO_LOCK -> new Created(new NoLockChainExecutor(chain, threads, keyCapacity));
            case PARTITIONED -> new Created(new PartitionedChainExecutor(chain, threads));
            case SERIAL -> new Created(new SerialChainExecutor(chain));
        };
    }

    /** @return the kind labelled {@code label}. */
    public static ExecutorKind ofLabel(final String label)
    {
        for (final ExecutorKind kind : values())
        {
            if (kind.label.equals(label))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("no executor '" + label + "'");
    }
}
