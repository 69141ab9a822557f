package io.transnfv.engine.checkpoint;

import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.report.CheckerReport;

import java.util.List;
import java.util.Objects;

/**
 * One checkpoint as written to and read from a {@link CheckpointFile}: where the run stood at a
 * batch boundary. A full checkpoint holds every committed entry of every table; an incremental
 * one holds, per table, only the entries changed since checkpoint {@code previousId} (a deleted
 * entry as its table's initial value), or the whole table where its change log overflowed
 * ({@link Table#whole()}). Immutable once built.
 *
 * @param id           this checkpoint's number, 1, 2, ... in the order taken.
 * @param full         true for a full checkpoint, false for an incremental one.
 * @param previousId   for an incremental checkpoint, the checkpoint it applies on; 0 for a full one.
 * @param chainId      fingerprint of the chain and traffic the checkpoint belongs to (see
 *                     {@link Checkpointer#fingerprint}); a checkpoint of another chain is refused.
 * @param inputPackets packets of the source the state holds: a resumed run skips this many.
 * @param packetTimeNs packet time of the last of them (for reports).
 * @param outputs      the sinks' committed lengths; whatever lies beyond is truncated on resume.
 * @param counters     the run's counters at the cut, in {@code RunStats}'s counter order.
 * @param faults       what VNF code threw on the packets before the cut (the run's fault list).
 * @param errorWindow  the error bound's window at the cut, so that a resumed run stops at the
 *                     packet an uninterrupted one would ({@link ErrorBound.Window#FRESH} if unknown).
 * @param paramChanges every change of a VNF parameter the run applied before the cut, in the
 *                     order they took effect: replayed on the chain's parameters they give the
 *                     parameters in force at the cut, which a resumed run starts with. Null for a
 *                     checkpoint of a format that did not record them (version 3 and older).
 * @param checkers     what the chain's state checkers found at the checks before the cut, so that
 *                     a resumed run reports every check of the run ({@link Checkers#NONE} if none ran
 *                     or the checkpoint predates the field).
 * @param tables       keyed state, one section per table in catalogue order.
 */
public record Checkpoint(
    long id, boolean full, long previousId, long chainId, long inputPackets, long packetTimeNs,
    List<Output> outputs, long[] counters, List<FaultLog.CarriedFault> faults, ErrorBound.Window errorWindow,
    List<ParamChanges.Applied> paramChanges, Checkers checkers, List<Table> tables)
{
    /** A checkpoint of a run whose parameters never changed, and that carries no checker tally. */
    public Checkpoint(
        final long id, final boolean full, final long previousId, final long chainId, final long inputPackets, final long packetTimeNs,
        final List<Output> outputs, final long[] counters, final List<FaultLog.CarriedFault> faults, final ErrorBound.Window errorWindow,
        final List<Table> tables)
    {
        this(id, full, previousId, chainId, inputPackets, packetTimeNs, outputs, counters, faults, errorWindow, List.of(), Checkers.NONE,
            tables);
    }

    /** A checkpoint with a fresh error window. */
    public Checkpoint(
        final long id, final boolean full, final long previousId, final long chainId, final long inputPackets, final long packetTimeNs,
        final List<Output> outputs, final long[] counters, final List<FaultLog.CarriedFault> faults, final List<Table> tables)
    {
        this(id, full, previousId, chainId, inputPackets, packetTimeNs, outputs, counters, faults, ErrorBound.Window.FRESH, tables);
    }

    /** A checkpoint with no faults carried (Flink's snapshots, tests). */
    public Checkpoint(
        final long id, final boolean full, final long previousId, final long chainId, final long inputPackets, final long packetTimeNs,
        final List<Output> outputs, final long[] counters, final List<Table> tables)
    {
        this(id, full, previousId, chainId, inputPackets, packetTimeNs, outputs, counters, List.of(), ErrorBound.Window.FRESH, tables);
    }

    /** Copies the lists, checks the chain of ids. */
    public Checkpoint
    {
        if (id < 1)
        {
            throw new IllegalArgumentException("checkpoint id must be >= 1: " + id);
        }
        if (full ? previousId != 0 : previousId < 1 || previousId >= id)
        {
            throw new IllegalArgumentException("checkpoint " + id + (full ? " is full but names a previous one: " : " is incremental on ")
                + previousId);
        }
        outputs = List.copyOf(outputs);
        counters = counters.clone();
        faults = List.copyOf(faults);
        Objects.requireNonNull(errorWindow, "errorWindow");
        paramChanges = paramChanges == null ? null : List.copyOf(paramChanges);
        Objects.requireNonNull(checkers, "checkers");
        tables = List.copyOf(tables);
    }

    /**
     * The chain's state checkers' tally at the cut: the checks run so far and each violated
     * checker's count, first report and keys, as the run's report shows them.
     *
     * @param checks     checks run before the cut.
     * @param violations each violated checker, in the order first found.
     */
    public record Checkers(long checks, List<CheckerReport.Violation> violations)
    {
        /** No check ran. */
        public static final Checkers NONE = new Checkers(0, List.of());

        /** Checks the count, freezes the list. */
        public Checkers
        {
            if (checks < 0)
            {
                throw new IllegalArgumentException("negative checker checks: " + checks);
            }
            violations = List.copyOf(violations);
        }
    }

    /**
     * A sink's committed position.
     *
     * @param name  what the sink is (e.g. {@code pcap}, {@code records}).
     * @param bytes bytes of the file that are committed.
     * @param items items (frames, records) in those bytes.
     */
    public record Output(String name, long bytes, long items)
    {
        /** Checks the name and the counts. */
        public Output
        {
            Objects.requireNonNull(name, "name");
            if (bytes < 0 || items < 0)
            {
                throw new IllegalArgumentException("output " + name + ": negative position " + bytes + "/" + items);
            }
        }
    }

    /**
     * One table's keyed state.
     *
     * @param name         the table's qualified name ({@code <instance>.<table>}).
     * @param initialValue the value of an absent key; an entry with it deletes the key.
     * @param whole        true if the section holds every entry of the table (always so in a full
     *                     checkpoint; in an incremental one where the table's change log
     *                     overflowed): it replaces the table rather than applying on it.
     * @param keys         the keys: ascending in a section of changes, in the store's order in a whole one.
     * @param values       the values, {@code values[i]} for {@code keys[i]}.
     */
    public record Table(String name, long initialValue, boolean whole, long[] keys, long[] values)
    {
        /** A section of changes (or, in a full checkpoint, of every entry). */
        public Table(final String name, final long initialValue, final long[] keys, final long[] values)
        {
            this(name, initialValue, false, keys, values);
        }

        /** Checks the arrays agree. */
        public Table
        {
            Objects.requireNonNull(name, "name");
            if (keys.length != values.length)
            {
                throw new IllegalArgumentException("table " + name + ": " + keys.length + " keys but " + values.length + " values");
            }
        }
    }

    /** @return entries over every table section. */
    public long entries()
    {
        long n = 0;
        for (final Table table : tables)
        {
            n += table.keys().length;
        }
        return n;
    }
}
