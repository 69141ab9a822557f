/**
 * Run counters and the end-of-run report: packets in and out, drops by stage and reason,
 * per-VNF counters, alerts, throughput and per-packet latency percentiles. Counters are
 * written by the thread that finishes packets and read by the progress reporter.
 */
package io.transnfv.engine.report;
