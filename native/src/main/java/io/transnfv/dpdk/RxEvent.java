package io.transnfv.dpdk;

/**
 * One slot of the ingress ring: a received packet whose mbuf is still in native memory.
 * Written by {@link DpdkReceiver} before it publishes the slot; read by {@link DpdkSource}
 * and {@link DpdkSink} on the engine's thread until the sink releases it. Preallocated.
 */
final class RxEvent
{
    long mbuf;
    int dataOffset;
    int dataLength;
    int packetLength;
    int segments;
    long timestampNs;
}
