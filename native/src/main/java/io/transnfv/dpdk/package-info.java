/**
 * The DPDK front end: packets in from a DPDK port, through the engine, and out again,
 * through a small JNI binding over {@code libtransnfv_dpdk.so} (C in {@code native/src/main/c}).
 *
 * <pre>
 *  NIC / vdev ─► rxBurst0 (C: rx burst, descriptors) ─► DpdkReceiver ─► ingress ring
 *     ▲              one JNI crossing per burst        (rx thread)      (Disruptor,
 *     │                                                                   RxEvent[])
 *     │                                                                          │
 *  txBurst0 (C: free drops, tx forwards) ◄─ DpdkSink ◄─ executor ◄─ DpdkSource ◄─┘
 *     one JNI crossing per burst        (verdicts, in    (engine     (attaches the buffer
 *                                        arrival order)   thread)     to the mbuf's data)
 * </pre>
 *
 * <p>Threads: {@link io.transnfv.dpdk.DpdkReceiver} runs on its own thread and is the
 * ring's only producer; {@link io.transnfv.dpdk.DpdkSource} and
 * {@link io.transnfv.dpdk.DpdkSink} run on the engine's thread: the one that reads the
 * source, which is the caller of {@code ChainExecutor.run} for the serial oracle and, for
 * the batched engine, whichever worker holds the IO role (one at a time, the role's
 * hand-over ordering the calls). Mbufs stay in native memory from rx until their verdict; a
 * ring slot, and so an mbuf, is released only when the sink has applied the verdict,
 * which bounds the packets in flight to the ring's size: when the engine is behind, the
 * receiver stops polling (backpressure) instead of dropping. Until then the engine reads
 * and rewrites a frame that fits in one mbuf in place, through the pool window: no copy
 * either way. The mbuf pool holds a full ring of full-size frames whatever the data room,
 * and before each burst C asks the port only for as many packets as the free mbufs hold
 * (a jumbo frame's worth each), so the port never reads a frame it has no mbufs for.
 *
 * <p>The EAL is process-global and initialises once ({@link io.transnfv.dpdk.Dpdk#initEal}).
 * See {@code docs/dpdk.md}.
 */
package io.transnfv.dpdk;
