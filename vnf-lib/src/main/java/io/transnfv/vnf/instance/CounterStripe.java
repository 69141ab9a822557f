package io.transnfv.vnf.instance;

/**
 * Implemented by runtime threads that own a stripe of every {@link io.transnfv.vnf.api.VnfCounter}:
 * a counter incremented on such a thread adds to that thread's own cell with a plain store,
 * without an atomic instruction or a shared cache line. Each stripe belongs to one live thread
 * at a time.
 */
public interface CounterStripe
{
    /** Number of stripes a counter has: stripe indices are in {@code [0, STRIPES)}. */
    int STRIPES = 64;

    /** @return this thread's stripe, in {@code [0, STRIPES)}, or -1 if it has none (it then counts like any thread). */
    int counterStripe();
}
