/**
 * Faults in VNF code and what the run does about them (see {@code docs/reliability.md}).
 *
 * <pre>
 *  VNF callback throws ──► caught where it is called (stage runner, oracle, operation context)
 *     preProcess          its transaction is discarded          ┐
 *     state function      its transaction aborts (FAULT)        ├─► packet dropped as {@code <vnf>:vnf-error}
 *     postProcess         (its transaction had committed)       ┘   FaultLog: class, packets, first trace
 *     expire              housekeeping of that VNF stops for this tick
 *  egress, in arrival order ──► ErrorBound: share of faulted packets per window of packet time
 *                                  over the bound ──► RunControl.requestStop (the run ends cleanly)
 *  Watchdog thread ──► no progress for the batch deadline ──► the run fails, naming VNF and packet
 * </pre>
 *
 * <p>{@link io.transnfv.engine.fault.FaultLog} is written by any worker (rarely: only when code
 * threw) and read after the run; {@link io.transnfv.engine.fault.ErrorBound} belongs to the
 * thread that finishes packets in order, and its window (start, packets, faulted) is carried by
 * each checkpoint and restored on resume, read and set at a batch boundary when that thread is
 * idle; the {@link io.transnfv.engine.fault.Watchdog} runs on its own daemon thread.
 */
package io.transnfv.engine.fault;
