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
 */
package io.transnfv.engine.control;
