package io.transnfv.cli;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import picocli.CommandLine.Option;

/** Which executor runs the chain. */
final class ExecutorOptions
{
    /** The executors a user can pick. */
    enum Kind
    {
        /** The transactional engine: punctuation batches, TPG, parallel executors. */
        tpg,
        /** The serial oracle: one thread, one packet at a time. */
        serial
    }

    @Option(names = "--executor", paramLabel = "KIND", defaultValue = "tpg",
        description = "Executor: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); serial is the oracle.")
    Kind kind;

    /** @return a new executor of the chosen kind for {@code chain}. */
    ChainExecutor create(final ChainSpec chain)
    {
        return create(kind, chain);
    }

    /** @return a new executor of {@code kind} for {@code chain}. */
    static ChainExecutor create(final Kind kind, final ChainSpec chain)
    {
        return switch (kind)
        {
            case serial -> new SerialChainExecutor(chain);
            case tpg -> new BatchedChainExecutor(chain, TpgBatchExecutor::new,
                "tpg, " + chain.settings().resolvedExecutorThreads() + " threads, batches of "
                    + chain.settings().punctuationTransactions());
        };
    }
}
