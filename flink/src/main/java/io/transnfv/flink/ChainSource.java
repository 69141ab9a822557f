package io.transnfv.flink;

import io.transnfv.engine.chain.ChainSpec;

import java.io.IOException;
import java.io.Serializable;

/**
 * How each Flink task gets the chain: a {@link ChainSpec} holds VNF factories and paths, which
 * Flink cannot ship, so the job ships this recipe and every task loads the chain again (the same
 * file, the same overrides, hence the same chain).
 */
@FunctionalInterface
public interface ChainSource extends Serializable
{
    /**
     * @return the chain, with the run's traffic and settings.
     * @throws IOException if the chain file cannot be read.
     */
    ChainSpec load() throws IOException;
}
