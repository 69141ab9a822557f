/**
 * Controlling a run from outside its threads: a request to stop reading and finish what was
 * read ({@link io.transnfv.engine.control.RunControl}), made by the command's signal handler or
 * by the error bound, and seen by whichever thread reads the source (the engine's IO role, the
 * serial oracle's loop) between two packets.
 *
 * <pre>
 *  SIGINT / SIGTERM / error bound ──► requestStop(cause) ──► reader: input ends here
 *     ──► batches already read are finished ──► outputs flushed, summary, report, state
 *     ──► beforeFinish hooks (a final checkpoint, once checkpoints exist)
 * </pre>
 *
 * <p>State lookups from the HTTP control plane ({@link io.transnfv.engine.control.StateCommand}:
 * one key, {@link io.transnfv.engine.control.StateQuery}, a page of a table,
 * {@link io.transnfv.engine.control.PageQuery}, or every entry of one flow,
 * {@link io.transnfv.engine.control.FlowQuery}, whose keys {@link io.transnfv.engine.control.FlowProbe}
 * asks the VNFs' own pre-processing for) go through a {@link io.transnfv.engine.control.CommandQueue}: a JCTools MPSC queue that the
 * engine drains where no batch is in flight, so every answer is the state after a whole batch.
 *
 * <p>Changes of VNF parameters ({@link io.transnfv.engine.control.ParamChanges}) take a packet
 * position: the engine reads no packet past a waiting change, lets the batches read finish,
 * applies it with nothing in flight and records where; the serial oracle applies the same change
 * before the same packet, so a run and its oracle replaying the recorded changes stay
 * equivalent.
 */
package io.transnfv.engine.control;
