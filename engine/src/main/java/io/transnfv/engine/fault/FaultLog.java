package io.transnfv.engine.fault;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What VNF code threw during a run: per VNF, callback and exception class, how many packets it
 * threw on and the first of them (the lowest arrival index, so every executor names the same
 * one) with its stack trace. Thread-safe; called only when code threw, so it may lock and
 * allocate. A checkpoint carries the list as it stood at its cut ({@link #carried}) and a resumed
 * run starts from it ({@link #restore}), so its report lists what an uninterrupted run's does.
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

    /**
     * One kind of fault as a checkpoint carries it: as {@link Fault}, with the first occurrence's
     * stack trace as text (for the fault log file of the resumed run).
     *
     * @param vnf           the VNF instance's name.
     * @param callback      the callback's label.
     * @param exception     the class of what was thrown.
     * @param packets       the packets before the cut it was thrown on.
     * @param firstSequence the arrival index of the first of them.
     * @param message       the first occurrence's message, or null.
     * @param stackTrace    the first occurrence's stack trace, as {@code printStackTrace} prints it.
     */
    public record CarriedFault(String vnf, String callback, String exception, long packets, long firstSequence, String message,
        String stackTrace)
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
        if (!entry.hasFirst || sequence < entry.firstSequence)
        {
            entry.hasFirst = true;
            entry.first = thrown;
            entry.stackTrace = null;
            entry.message = thrown.getMessage();
            entry.firstSequence = sequence;
        }
    }

    /**
     * @param cutSequence the arrival index of the first packet after a checkpoint's cut.
     * @return the faults on packets before the cut (a later batch may already have been
     *         pre-processed), as a checkpoint carries them; by VNF, callback and exception class.
     */
    public synchronized List<CarriedFault> carried(final long cutSequence)
    {
        final List<CarriedFault> carried = new ArrayList<>();
        for (final Map.Entry<Key, Entry> e : sorted())
        {
            final Entry v = e.getValue();
            if (v.firstSequence >= cutSequence)
            {
                continue;
            }
            long packets = v.restoredPackets;
            for (final long sequence : v.sequences)
            {
                packets += sequence < cutSequence ? 1 : 0;
            }
            final Key k = e.getKey();
            carried.add(new CarriedFault(vnfNames.get(k.vnf), k.callback.label(), k.exception, packets, v.firstSequence, v.message,
                v.stackTrace()));
        }
        return carried;
    }

    /**
     * A resumed run: starts from the faults a checkpoint carried (before any packet is processed).
     *
     * @throws IllegalArgumentException if a fault names a VNF or callback this chain does not have.
     */
    public synchronized void restore(final List<CarriedFault> carried)
    {
        entries.clear();
        for (final CarriedFault fault : carried)
        {
            final int vnf = vnfNames.indexOf(fault.vnf());
            Callback callback = null;
            for (final Callback c : Callback.values())
            {
                callback = c.label().equals(fault.callback()) ? c : callback;
            }
            if (vnf < 0 || callback == null)
            {
                throw new IllegalArgumentException("a fault of VNF '" + fault.vnf() + "' in " + fault.callback() + ", not in this chain");
            }
            final Entry entry = new Entry();
            entry.restoredPackets = fault.packets();
            entry.hasFirst = true;
            entry.firstSequence = fault.firstSequence();
            entry.message = fault.message();
            entry.stackTrace = fault.stackTrace();
            entries.put(new Key(vnf, callback, fault.exception()), entry);
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
     * A kind of fault with the first occurrence's stack trace, for the fault log file.
     *
     * @param fault      the kind, as reported.
     * @param stackTrace what its first packet's callback threw, as {@code printStackTrace} prints it
     *                   (for a run resumed from a checkpoint, as the checkpoint carried it).
     */
    public record FirstThrow(Fault fault, String stackTrace)
    {
    }

    /** @return every kind of fault with its first occurrence's stack trace, in {@link #faults()} order. */
    public synchronized List<FirstThrow> firstThrows()
    {
        final List<FirstThrow> firsts = new ArrayList<>();
        for (final Map.Entry<Key, Entry> e : sorted())
        {
            final Key k = e.getKey();
            final Entry v = e.getValue();
            firsts.add(new FirstThrow(new Fault(vnfNames.get(k.vnf), k.callback.label(), k.exception, v.restoredPackets + v.sequences.size(),
                v.firstSequence, v.message), v.stackTrace()));
        }
        return firsts;
    }

    private List<Map.Entry<Key, Entry>> sorted()
    {
        final List<Map.Entry<Key, Entry>> sorted = new ArrayList<>(entries.entrySet());
        sorted.sort((a, b) -> a.getKey().compareTo(b.getKey()));
        return sorted;
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
        /** Packets counted by the run this one resumed (before its checkpoint's cut). */
        long restoredPackets;
        boolean hasFirst;
        Throwable first;
        String message;
        String stackTrace;
        long firstSequence;

        String stackTrace()
        {
            if (stackTrace == null && first != null)
            {
                final StringBuilder text = new StringBuilder();
                appendTrace(text, first, "", Collections.newSetFromMap(new IdentityHashMap<>()));
                stackTrace = text.toString();
            }
            return stackTrace;
        }
    }

    /**
     * Appends {@code t}'s stack trace as text, in the JDK's layout: the throwable, a tab and
     * {@code at} per frame, then its suppressed throwables and its cause, each once.
     */
    private static void appendTrace(final StringBuilder text, final Throwable t, final String caption, final Set<Throwable> seen)
    {
        if (!seen.add(t))
        {
            text.append(caption).append("[CIRCULAR REFERENCE: ").append(t).append(']').append(System.lineSeparator());
            return;
        }
        text.append(caption).append(t).append(System.lineSeparator());
        for (final StackTraceElement frame : t.getStackTrace())
        {
            text.append("\tat ").append(frame).append(System.lineSeparator());
        }
        for (final Throwable suppressed : t.getSuppressed())
        {
            appendTrace(text, suppressed, "Suppressed: ", seen);
        }
        if (t.getCause() != null)
        {
            appendTrace(text, t.getCause(), "Caused by: ", seen);
        }
    }
}
