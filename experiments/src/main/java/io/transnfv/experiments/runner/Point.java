package io.transnfv.experiments.runner;

/**
 * One measured configuration of an experiment.
 *
 * @param chain        the chain's name: {@code lb} or {@code nat-lb-td}.
 * @param servers      the load balancer's server pool (its {@code servers} parameter).
 * @param newConnRatio share of packets that open a connection.
 * @param threads      executor threads or workers.
 * @param batchTxns    punctuation: transactions per batch (the baselines' dispatch unit too).
 * @param executor     what runs the chain.
 */
public record Point(String chain, int servers, double newConnRatio, int threads, int batchTxns, ExecutorKind executor)
{
    /** @return the key of the traffic and oracle this point shares with others. */
    String trafficKey()
    {
        return chain + "/" + servers + "/" + newConnRatio;
    }
}
