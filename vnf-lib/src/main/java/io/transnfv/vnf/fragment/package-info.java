/**
 * Shallow (virtual) reassembly of IP fragments at the chain's entry: the
 * {@link io.transnfv.vnf.fragment.FragmentTracker} remembers what each fragmented datagram's
 * first fragment is classified by (TCP/UDP ports; an ICMP type and an error's quote), in
 * transactional tables like any VNF's, and gives it to the datagram's other fragments
 * ({@link io.transnfv.vnf.fragment.FirstFragmentFields} for the ones it releases), so that
 * every VNF after it classifies a fragment as its datagram's first. Fragments of every
 * protocol are tracked and ordered after their first.
 * Executors run it before the chain's first VNF, on whichever thread runs that packet's
 * transaction; holding fragments that come before their first is the executors' part (they
 * own the packet buffers), counted here.
 */
package io.transnfv.vnf.fragment;
