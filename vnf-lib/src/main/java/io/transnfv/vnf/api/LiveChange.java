package io.transnfv.vnf.api;

/**
 * A prepared change of a running VNF's parameters ({@link Vnf#prepareChange}): whatever could fail
 * was done when it was prepared, so applying only stores new values. Applied once, by the
 * runtime, between two batches.
 */
@FunctionalInterface
public interface LiveChange
{
    /** Sets the new values; must not fail, allocate much or touch state. */
    void apply();
}
