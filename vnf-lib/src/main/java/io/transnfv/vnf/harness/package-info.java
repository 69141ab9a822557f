/**
 * An in-thread harness for testing one VNF, like Netty's {@code EmbeddedChannel}: frames
 * in, verdicts and state out. {@link io.transnfv.vnf.harness.VnfHarness} runs each packet
 * through pre-processing, the serial oracle's {@link io.transnfv.tpg.txn.SerialApplier} on
 * a {@link io.transnfv.vnf.instance.MapStateStore}, and post-processing, and places expiry
 * ticks in packet time; {@link io.transnfv.vnf.harness.Frames} writes test frames with
 * correct checksums. Test tooling: single-threaded, allocates freely, never on a hot path.
 */
package io.transnfv.vnf.harness;
