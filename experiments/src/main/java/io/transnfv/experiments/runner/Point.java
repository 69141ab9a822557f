package io.transnfv.experiments.runner;

/**
 * One measured configuration of an experiment.
 *
 * @param chain        the chain's name: {@code lb}, {@code lb-stale} (the load balancer with its
 *                     server loads under {@code { stale-reads: 1 }}) or {@code nat-lb-td}.
 * @param servers      the load balancer's server pool (its {@code servers} parameter).
 * @param newConnRatio share of packets that open a connection.
 * @param threads      executor threads or workers.
 * @param batchTxns    punctuation: transactions per batch (the baselines' dispatch unit too).
 * @param executor     what runs the chain.
 * @param offeredLoad  {@code latency}: the offered load as a share of the engine's measured
 *                     capacity, replayed paced in wall time; 0 for an unpaced run (as fast as
 *                     the executor reads).
 */
public record Point(
    String chain, int servers, double newConnRatio, int threads, int batchTxns, ExecutorKind executor, double offeredLoad)
{
    /** An unpaced point: the executor reads the traffic as fast as it can. */
    public Point(
        final String chain, final int servers, final double newConnRatio, final int threads, final int batchTxns,
        final ExecutorKind executor)
    {
        this(chain, servers, newConnRatio, threads, batchTxns, executor, 0);
    }

    /** @return true if the traffic is offered paced in wall time rather than as fast as the executor reads. */
    public boolean paced()
    {
        return offeredLoad > 0;
    }

    /** @return true if the chain is the load balancer alone, with or without stale reads. */
    public boolean loadBalancerAlone()
    {
        return chain.equals("lb") || chain.equals(Experiment.LB_STALE);
    }

    /** @return true if the chain is one of the tenants experiment's chains of tenants. */
    public boolean tenants()
    {
        return chain.startsWith("tenants-");
    }

    /**
     * @return the key of the traffic and oracle this point shares with others: {@code lb-stale}
     *         shares {@code lb}'s, since the serial oracle does not relax its reads.
     */
    String trafficKey()
    {
        return (loadBalancerAlone() ? "lb" : chain) + "/" + servers + "/" + newConnRatio;
    }
}
