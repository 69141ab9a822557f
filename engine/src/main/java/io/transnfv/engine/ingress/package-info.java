/**
 * The front of the data path: packet time as the chain sees it and the housekeeping ticks
 * placed in it. Driven by the one thread that reads the packet source.
 */
package io.transnfv.engine.ingress;
