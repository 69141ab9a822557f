/**
 * Running a VNF stage on a batch: data path steps 2 and 7. Pre-processing parses packets and
 * declares their transactions, chunk by chunk into per-chunk logs; post-processing acts on the
 * outcomes (rewrite, forward, drop, alert, tag), records them and routes each packet to its
 * next VNF or out of the chain. Both run on every worker at once, a chunk of packets per task;
 * only state access goes through the task precedence graph.
 * {@link io.transnfv.engine.stage.StageDispatch} cuts a batch into chunks and owns their logs
 * and the gather into one log per stage; {@link io.transnfv.engine.stage.StageRunner} runs the
 * VNF code on a chunk. Before the entry VNF, the {@link io.transnfv.engine.stage.FragmentStage}
 * runs the fragment tracker on a batch that has IP fragments, on the worker that starts it. When
 * the chain shares a table between VNFs, the {@link io.transnfv.engine.stage.FusedSegment} runs the
 * stages from the first to the last VNF bound to one, packet by packet on one worker, in place of
 * their STEP, GATHER and executor phases (docs/design/chains.md, "Tables shared across VNFs").
 *
 * <pre>
 *  closing frame (IO role)  admit ─► pre-process VNF 0 ─► admitted log (frame, c)
 *  STEP s, chunk c          [post-process VNF s-1 ─► route] ─► pre-process VNF s ─► log(s, c)
 *  GATHER s, chunk c        log(s, c) ─► stage log s at the chunk's offsets ─► executor
 * </pre>
 */
package io.transnfv.engine.stage;
