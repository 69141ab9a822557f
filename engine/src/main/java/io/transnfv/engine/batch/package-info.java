/**
 * Batching: data path step 3. The ingress fills a {@link io.transnfv.engine.batch.BatchFrame}
 * until a {@link io.transnfv.engine.batch.Punctuation} closes it; the frame then carries its
 * packets through the chain's stages and to the egress, and goes back round the
 * {@link io.transnfv.engine.batch.FrameRing}.
 *
 * <pre>
 *  FrameRing    fill ──► [frame k+2]     process ──► [frame k+1]          emit ──► [frame k]
 *               IO role: FREE ─► FILLING  workers:  READY ─► PROCESSING     IO role: DONE ─► FREE
 *               ─► punctuation ─► READY   ─► stages ─► DONE                 (egress)
 *
 *  engine flag  won by compare-and-set: its holder starts the READY batch; the IO role holds it
 *               to answer state lookups, a worker keeps it while a checkpoint is due
 *  feedback     worker: batch k took t ns for n packets ─► IO role: Punctuation.onProcessed
 * </pre>
 *
 * <p>How batches closed also says how many workers the load needs:
 * {@link io.transnfv.engine.batch.Engagement} engages one while the input runs dry, all as soon
 * as packets wait. {@link io.transnfv.engine.batch.ProcessingFeedback} carries a batch's
 * processing time from the worker that finished it to the IO role, which owns the punctuation.
 * {@link io.transnfv.engine.batch.BatchMemory} sizes the frames before anything is allocated.
 *
 * <p>Threads: a frame has one owner at a time (the IO role while filling and finishing, the
 * workers running its phases while processing); its state is the hand-over. Each ring
 * position is moved by its one owner.
 */
package io.transnfv.engine.batch;
