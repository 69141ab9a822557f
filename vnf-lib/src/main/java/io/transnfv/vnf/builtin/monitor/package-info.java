/**
 * The {@code flow-monitor} VNF: per-flow and per-host packet and byte counts for reports
 * ({@link io.transnfv.vnf.builtin.monitor.FlowMonitor}, created by
 * {@link io.transnfv.vnf.builtin.monitor.FlowMonitorFactory}). Configuration is read-only
 * after construction; pre- and post-processing may run on any number of threads.
 */
package io.transnfv.vnf.builtin.monitor;
