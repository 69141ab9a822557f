/**
 * Ingress, data path step 1: packets from the source into the engine.
 * {@link io.transnfv.engine.ingress.Ingress} reads them straight into a batch's frame and closes
 * the batch when its punctuation says so; {@link io.transnfv.engine.ingress.PacketClock} holds
 * packet time non-decreasing and {@link io.transnfv.engine.ingress.ExpiryTicker} places the
 * housekeeping ticks in it, the same way for the oracle and the engine, with the capacity checks
 * each packet's {@link io.transnfv.engine.ingress.CheckGroups check group} (its tenant, in a chain
 * of tenants) counts towards;
 * {@link io.transnfv.engine.ingress.QuietClock} moves packet time on with the wall clock while a
 * live source (a port) is quiet, so that its idle state still expires.
 * {@link io.transnfv.engine.ingress.IngressRing} reads a source on a thread of its own into a
 * ring, for a consumer that reads packet by packet (the serial oracle).
 * {@link io.transnfv.engine.ingress.HeldFragments} keeps the IP fragments that came before
 * their datagram's first, for the fragment tracker at the chain's entry.
 *
 * <p>Threads: an {@code Ingress}, its clocks, ticker and check groups are driven by whichever worker holds the
 * IO role, the role's hand-over ordering every call; an {@code IngressRing} has one producer
 * (its own thread) and one consumer. {@code HeldFragments} belongs to the thread that runs the
 * tracker's transactions of a batch (the oracle's thread, the worker that starts a batch).
 */
package io.transnfv.engine.ingress;
