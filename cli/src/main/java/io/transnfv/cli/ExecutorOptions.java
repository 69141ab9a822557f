package io.transnfv.cli;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import picocli.CommandLine.Option;

/** Which executor runs the chain, and with which scheduling strategy. */
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

    @Option(names = "--strategy", paramLabel = "NAME", defaultValue = TpgBatchExecutor.DEFAULT_STRATEGY,
        description = {"Scheduling strategy of the tpg executor (default: ${DEFAULT-VALUE}):",
            "exploration/granularity/abort with exploration bfs|dfs|random, granularity op|group,",
            "abort eager|lazy (e.g. dfs/group/lazy), or adaptive (heuristic decision model per batch)",
            "or adaptive-feedback (bandit over the 12 policies)."})
    String strategy;

    /** @return a new executor of the chosen kind for {@code chain}. */
    ChainExecutor create(final ChainSpec chain)
    {
        return create(kind, strategy, chain);
    }

    /** @return a new executor of {@code kind} using {@code strategy} for {@code chain}. */
    static ChainExecutor create(final Kind kind, final String strategy, final ChainSpec chain)
    {
        return switch (kind)
        {
            case serial -> new SerialChainExecutor(chain);
            case tpg ->
            {
                TpgBatchExecutor.decisionModel(strategy); // rejects an unknown name before any thread starts
                yield new BatchedChainExecutor(chain, threads -> TpgBatchExecutor.create(threads, strategy), "tpg " + strategy);
            }
        };
    }
}
