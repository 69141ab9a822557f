package io.transnfv.vnf.api;

/** Who shares a table's entries: one flow, or many. Reported in dumps; guides partitioning. */
public enum TableScope
{
    /** Each entry belongs to one flow or endpoint (a NAT mapping, a connection's server). */
    PER_FLOW,
    /** Entries are shared across flows (a port pool, per-server load, per-host counters). */
    CROSS_FLOW
}
