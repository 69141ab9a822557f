/**
 * Primitive collections for the hot path: open-addressing maps over {@code long} keys and
 * values, no boxing, a sentinel instead of null. Not thread-safe; each instance is owned by
 * one thread at a time.
 */
package io.transnfv.tpg.collections;
