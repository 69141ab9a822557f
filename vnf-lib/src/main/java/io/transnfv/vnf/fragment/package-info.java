/**
 * Shallow (virtual) reassembly of IP fragments at the chain's entry: the
 * {@link io.transnfv.vnf.fragment.FragmentTracker} remembers each fragmented TCP/UDP datagram's
 * ports from its first fragment, in transactional tables like any VNF's, and gives them to the
 * datagram's other fragments, so that every VNF after it keys a fragment as its datagram's flow.
 * Executors run it before the chain's first VNF, on whichever thread runs that packet's
 * transaction; holding fragments that come before their first is the executors' part (they
 * own the packet buffers), counted here.
 */
package io.transnfv.vnf.fragment;
