package io.transnfv.engine.fault;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What VNF code threw during a run: per VNF, callback and exception class, how many packets it
 * threw on and the first of them (the lowest arrival index, so every executor names the same
 * one) with its stack trace. Thread-safe; called only when code threw, so it may lock and
 * allocate.
 */
public final class FaultLog
{
    /** The VNF callback that threw. */
    public enum Callback
    {
        /** {@code Vnf.preProcess}: the packet's transaction is discarded. */
        PRE_PROCESS("preProcess"),
        /** A state function or chooser, while the transaction executed: it aborts. */
        STATE_FUNCTION("state function"),
        /** {@code Vnf.postProcess}, after the transaction committed. */
        POST_PROCESS("postProcess"),
        /** {@code Vnf.expire}, the housekeeping between two packets. */
        EXPIRE("expire");

        private final String label;

        Callback(final String label)
        {
            this.label = label;
        }

        /** @return the name in reports, e.g. {@code preProcess}. */
        public String label()
        {
            return label;
        }
    }

    /**
     * One kind of fault, as reported.
     *
     * @param vnf           the VNF instance's name.
     * @param callback      the callback's label.
     * @param exception     the class of what was thrown.
     * @param packets       the packets it was thrown on (for {@code expire}, the ticks).
     * @param firstSequence the arrival index of the first such packet (for {@code expire}, of the
     *                      packet the tick came before, or for a tick on a quiet live source, of
     *                      the last packet before it).
     * @param message       the first occurrence's message, or null.
     */
    public record Fault(String vnf, String callback, String exception, long packets, long firstSequence, String message)
    {
    }

    private final List<String> vnfNames;
    private final Map<Key, Entry> entries = new LinkedHashMap<>();

    /** @param vnfNames the chain's VNF names by index. */
    public FaultLog(final List<String> vnfNames)
    {
        this.vnfNames = List.copyOf(vnfNames);
    }

    /**
     * Records that {@code thrown} came out of VNF {@code vnf}'s {@code callback} on packet {@code sequence}.
     * A packet counts once per kind however often its function ran (an executor may re-run one).
     */
    public synchronized void record(final int vnf, final Callback callback, final long sequence, final Throwable thrown)
    {
        final Key key = new Key(vnf, callback, thrown.getClass().getName());
        final Entry entry = entries.computeIfAbsent(key, k -> new Entry());
        entry.sequences.add(sequence);
        if (entry.first == null || sequence < entry.firstSequence)
        {
            entry.first = thrown;
            entry.firstSequence = sequence;
        }
    }

    /** @return true if nothing was recorded. */
    public synchronized boolean isEmpty()
    {
        return entries.isEmpty();
    }

    /** @return every kind of fault, by VNF, callback and exception class. */
    public synchronized List<Fault> faults()
    {
        final List<Fault> faults = new ArrayList<>();
        for (final FirstThrow first : firstThrows())
        {
            faults.add(first.fault());
        }
        return faults;
    }

    /**
     * A kind of fault with the first occurrence's {@link Throwable}, for the fault log file.
     *
     * @param fault  the kind, as reported.
     * @param thrown what its first packet's callback threw.
     */
    public record FirstThrow(Fault fault, Throwable thrown)
    {
    }

    /** @return every kind of fault with its first occurrence's throwable, in {@link #faults()} order. */
    public synchronized List<FirstThrow> firstThrows()
    {
        final List<Map.Entry<Key, Entry>> sorted = new ArrayList<>(entries.entrySet());
        sorted.sort((a, b) -> a.getKey().compareTo(b.getKey()));
        final List<FirstThrow> firsts = new ArrayList<>();
        for (final Map.Entry<Key, Entry> e : sorted)
        {
            final Key k = e.getKey();
            final Entry v = e.getValue();
            firsts.add(new FirstThrow(new Fault(vnfNames.get(k.vnf), k.callback.label(), k.exception, v.sequences.size(),
                v.firstSequence, v.first.getMessage()), v.first));
        }
        return firsts;
    }

    private record Key(int vnf, Callback callback, String exception) implements Comparable<Key>
    {
        @Override
        public int compareTo(final Key o)
        {
            if (vnf != o.vnf)
            {
                return Integer.compare(vnf, o.vnf);
            }
            if (callback != o.callback)
            {
                return callback.compareTo(o.callback);
            }
            return exception.compareTo(o.exception);
        }
    }

    private static final class Entry
    {
        final Set<Long> sequences = new HashSet<>();
        Throwable first;
        long firstSequence;
    }
}
