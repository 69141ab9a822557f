package io.transnfv.vnf.api;

/**
 * Where {@link Vnf#checkInvariants} reports what it found wrong. Each invariant has a short
 * stable name (kebab-case, e.g. {@code port-owned-by-its-mapping}); the detail says which
 * entries break it. The runtime counts violations per invariant and keeps the first detail.
 */
@FunctionalInterface
public interface InvariantViolations
{
    /**
     * @param invariant the invariant's name.
     * @param detail    what breaks it, naming the keys and values involved.
     */
    void violated(String invariant, String detail);
}
