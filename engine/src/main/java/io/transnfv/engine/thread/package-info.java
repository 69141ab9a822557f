/**
 * The engine's threads: a {@link io.transnfv.engine.thread.WorkerGroup} of symmetric workers
 * that run {@link io.transnfv.engine.thread.Phase}s of a batch (any worker joins a phase, the
 * last to leave closes it and opens the next), the side work of the IO role in between, and
 * one idle discipline ({@link io.transnfv.engine.thread.IdleSettings}) for every thread that
 * polls. Each worker counts where its time goes ({@link io.transnfv.engine.thread.WorkerClock}).
 *
 * <pre>
 *  worker 0 ─┐                       ┌─ phase k: enter ─► work ─► leave ─┐
 *  worker 1 ─┼─► current phase ──────┤                                   ├─► last leaver: transition
 *  worker N ─┘   (volatile)          └─ none enterable: side work or idle│   ─► publish phase k+1
 * </pre>
 */
package io.transnfv.engine.thread;
