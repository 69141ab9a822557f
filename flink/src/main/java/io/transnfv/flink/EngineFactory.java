package io.transnfv.flink;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;

import java.io.Serializable;

/** Creates the engine each Flink subtask runs; shipped with the job, so it must be serializable. */
@FunctionalInterface
public interface EngineFactory extends Serializable
{
    /** @return a new executor of {@code chain}, with its own runtime and state. */
    ChainExecutor create(ChainSpec chain);

    /** @return the transactional engine with the default strategy (the standalone run's default executor). */
    static EngineFactory tpg()
    {
        return chain -> new BatchedChainExecutor(chain, threads -> TpgBatchExecutor.create(threads, TpgBatchExecutor.DEFAULT_STRATEGY),
            "tpg " + TpgBatchExecutor.DEFAULT_STRATEGY);
    }
}
