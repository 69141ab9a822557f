/**
 * The API VNF developers program against.
 *
 * <pre>
 *  setup(VnfSetup)                 once: declare tables, outputs, drop reasons, alerts, tags, checkers
 *  preProcess(packet, txn)         per packet: stateless part, declare the state accesses
 *  ── the engine runs the transaction (serially, or in a TPG with other packets') ──
 *  postProcess(packet, result, actions)   per packet: forward, drop, rewrite, alert
 *  expire(nowNs, state)            at packet-time ticks, between transactions: housekeeping
 *  StateChecker.check(state, out)  at punctuations the chain asks for, and on the final state:
 *                                  what must always hold
 *  prepareChange(next) ─► LiveChange.apply()   a live parameter changed while the chain runs:
 *                                  prepared on the asker's thread, applied between two batches
 * </pre>
 *
 * <p>Pre- and post-processing may run on several threads at once (one packet each); state is
 * only touched through transactions, and in {@code expire} and the checkers, which run alone.
 *
 * <p>Consistency hints: a table declared {@link io.transnfv.vnf.api.TableSpec#commutable()} may be
 * made {@code consistency: commutative} by the chain; the VNF reads the hint at setup
 * ({@link io.transnfv.vnf.api.VnfSetup#commutative(int)}) and then declares its updates of the
 * table as ADDs, which the graph does not order among themselves. Likewise
 * {@link io.transnfv.vnf.api.TableSpec#forgettable()} and
 * {@link io.transnfv.vnf.api.VnfSetup#fireAndForget(int)} for {@code consistency: fire-and-forget}
 * (updates declared as DEFERs, applied in serial order once the batch commits; COE holds), and
 * {@link io.transnfv.vnf.api.TableSpec#staleReadable()} and
 * {@link io.transnfv.vnf.api.VnfSetup#staleReads(int)} for {@code consistency: {stale-reads: b}}
 * (reads and choices as of the batch start, updates by deltas; COE relaxed, see
 * docs/design/tpg.md).
 *
 * <p>State types ({@link io.transnfv.vnf.api.StateType}): a table declared
 * {@link io.transnfv.vnf.api.TableSpec#asSet()} holds a set per key and is accessed through
 * {@link io.transnfv.vnf.api.StateSet}; one declared {@link io.transnfv.vnf.api.TableSpec#asRing(int)}
 * holds the last values pushed per key and is accessed through {@link io.transnfv.vnf.api.StateRing};
 * one declared {@link io.transnfv.vnf.api.TableSpec#asStruct(String...)} holds a record of fields per
 * key and is accessed through {@link io.transnfv.vnf.api.StateStruct}, a field an entry; one declared
 * {@link io.transnfv.vnf.api.TableSpec#asPacked(io.transnfv.vnf.api.PackedLayout)} holds a record of
 * bit fields packed in one entry per key, read and rewritten whole by one operation, its fields got
 * and set with {@link io.transnfv.vnf.api.PackedField}. All spell their operations as
 * READs, WRITEs, READ_MODIFYs and CHOOSEs of ordinary entries, so they are serializable like any
 * table (docs/design/tpg.md, "Sets, rings and structs").
 */
package io.transnfv.vnf.api;
