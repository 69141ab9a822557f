package io.transnfv.cli.http;

import io.transnfv.engine.pipeline.ChainExecutor;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the control plane shows of one run: the executor whose published figures it reads and
 * whose stop it requests, and what the command knows about the run.
 *
 * @param chain            the chain's name.
 * @param executorSettings the executor's settings as the run report gives them (serialised as JSON).
 * @param executor         the run's executor; read through its snapshots, live entries and stop request only.
 * @param expectedPackets  packets the traffic holds, or -1 when unknown (a live port).
 * @param tableNames       every state table's {@code vnf.table} name, in the catalogue's order.
 * @param portCounters     the DPDK port's counters by name (the front end's own and the port's last
 *                         {@code rte_eth_stats_get}), read from any thread; null without DPDK.
 */
public record RunView(String chain, Object executorSettings, ChainExecutor executor, long expectedPackets,
    List<String> tableNames, Supplier<Map<String, Long>> portCounters)
{
    /** A run without DPDK. */
    public RunView(final String chain, final Object executorSettings, final ChainExecutor executor, final long expectedPackets,
        final List<String> tableNames)
    {
        this(chain, executorSettings, executor, expectedPackets, tableNames, null);
    }
}
