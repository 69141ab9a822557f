package io.transnfv.cli.http;

import io.transnfv.engine.pipeline.ChainExecutor;

import java.util.List;

/**
 * What the control plane shows of one run: the executor whose published figures it reads and
 * whose stop it requests, and what the command knows about the run.
 *
 * @param chain            the chain's name.
 * @param executorSettings the executor's settings as the run report gives them (serialised as JSON).
 * @param executor         the run's executor; read through its snapshots, live entries and stop request only.
 * @param expectedPackets  packets the traffic holds, or -1 when unknown (a live port).
 * @param tableNames       every state table's {@code vnf.table} name, in the catalogue's order.
 */
public record RunView(String chain, Object executorSettings, ChainExecutor executor, long expectedPackets,
    List<String> tableNames)
{
}
