/**
 * Run counters and the end-of-run report: packets in and out, drops by stage and reason,
 * per-VNF counters, alerts and their subjects, throughput, per-packet latency percentiles,
 * and how the engine scheduled.
 *
 * <pre>
 *  workers, egress ──► RunStats ───┐ (counters, alert subjects, latency histogram)
 *  BatchExecutor.summary() ────────┼──► SchedulerReport ──┐
 *  ChainExecutor.executorSummary() ┘    (+ batches, punctuation, time per packet, threads)
 *                                                          ├──► RunReport ──► toText()  (the terminal)
 *  the command: version, executor, source, output files ──┘   (records)  └──► JSON     (docs/run-report.schema.json)
 * </pre>
 *
 * <p>Counters are written by the workers (each its own {@link io.transnfv.engine.report.RunStats},
 * merged at the end) and the egress (latency, the finished count the progress reporter reads);
 * the reports are immutable records, built once after the run.
 *
 * <p>While a run goes on, readers off the data path (the HTTP control plane, the periodic stats
 * line) never read those counters themselves: they ask a {@link io.transnfv.engine.report.SnapshotExchange}
 * and the thread that finishes packets copies them into an immutable {@link io.transnfv.engine.report.RunSnapshot}
 * at its next batch boundary.
 */
package io.transnfv.engine.report;
