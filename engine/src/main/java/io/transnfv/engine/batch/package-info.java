/**
 * Batching: data path step 3. The ingress fills a {@link io.transnfv.engine.batch.BatchFrame}
 * until a {@link io.transnfv.engine.batch.Punctuation} closes it; the frame then carries its
 * packets through the chain's stages and to the egress, and goes back round the ring.
 *
 * <pre>
 *  ingress ──fill──► [frame k+2]    workers ──stages──► [frame k+1]    egress ──finish──► [frame k]
 *                     FILLING                           PROCESSING                       DONE → FREE
 * </pre>
 *
 * <p>How batches closed also says how many workers the load needs:
 * {@link io.transnfv.engine.batch.Engagement} engages one while the input runs dry, all as soon
 * as packets wait.
 *
 * <p>Threads: a frame has one owner at a time (the IO role while filling and finishing, the
 * workers running its phases while processing); its state is the hand-over.
 */
package io.transnfv.engine.batch;
