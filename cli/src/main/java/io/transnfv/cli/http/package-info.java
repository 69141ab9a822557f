/**
 * The HTTP control plane of a run ({@code transnfv run --http HOST:PORT}): Prometheus metrics,
 * a JSON status, a server-sent event stream of both for the live page, state lookups (a key, a
 * page of a table, one flow across the chain), changes of VNF parameters and a graceful stop,
 * served by Netty on its own event loop thread.
 *
 * <p>Threads: {@code transnfv-http} (one Netty event loop) runs every handler; it never runs
 * engine code, only the VNFs' stateless pre-processing when {@code GET /flows} asks them for a
 * flow's keys ({@link io.transnfv.engine.control.FlowProbe}), which may run on any thread. It reads the run through what the engine already publishes for readers off the
 * data path — {@link io.transnfv.engine.report.SnapshotExchange snapshots} copied at batch
 * boundaries when asked, the atomic finished count, the executor's live table sizes — and
 * writes only the run's {@link io.transnfv.engine.control.RunControl stop request} and, checked
 * and prepared on this thread, {@link io.transnfv.engine.control.ParamChanges parameter changes}
 * the engine applies between two batches. The data path takes no lock and allocates nothing per
 * packet for it.
 */
package io.transnfv.cli.http;
