/**
 * JMH benchmarks of the packet view: {@code PacketFlyweight.wrap} and the flow key over
 * frames from the synthetic generator. Each benchmark thread owns its frames and view.
 */
package io.transnfv.experiments.packet;
