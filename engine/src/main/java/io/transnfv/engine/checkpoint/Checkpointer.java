package io.transnfv.engine.checkpoint;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.vnf.instance.ChangeTrackingState;
import io.transnfv.vnf.instance.ChangedKeyLog;
import io.transnfv.vnf.instance.TableCatalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Takes checkpoints at batch boundaries and restores the newest one. The executor asks
 * {@link #dueAfterBatch} at every batch boundary (nothing else happens per batch) and, when it
 * says yes, calls {@link #take} once the batch's packets have reached the sinks and before any
 * later transaction touches state; on resume it calls {@link #restore} and skips
 * {@link #resumeInputPackets()} packets of the source.
 *
 * <p>Incremental checkpoints: the state logs, per table, the keys whose committed value changed
 * since the last checkpoint ({@link ChangeTrackingState#trackChanges}, switched on here, so a run
 * without checkpoints logs nothing). An incremental checkpoint writes each logged key with its
 * value now (a deleted key as its table's initial value), keys ascending: it costs time and
 * bytes in proportion to the keys changed, not to the state. A full checkpoint streams every
 * entry of every table from where it lives ({@link ChangeTrackingState#forEachEntry}: heap shards,
 * Chronicle's off-heap segments) straight into the file. The checkpointer keeps no copy of any
 * table: beside the state's change logs (bounded, see {@link ChangedKeyLog}) it holds one array
 * of the most keys one table changed between two checkpoints, to sort them. A table whose log
 * overflowed (more changed keys than half its live entries) is written whole in the next
 * checkpoint, which a restore reads as a replacement of the table.
 *
 * <p>The checkpoint also carries the run's fault list ({@link FaultLog#carried}) as it stood at
 * the cut, so that a resumed run reports the faults of the packets before it, and the changes of
 * VNF parameters applied before the cut ({@link #carryParamChanges}), so that a resumed run goes
 * on with the parameters in force there rather than the chain's.
 *
 * <p>Threads: one at a time, the thread that holds the batch boundary.
 */
public final class Checkpointer
{
    private final CheckpointSettings settings;
    private final CheckpointStore store;
    private final TableCatalog catalog;
    private final long chainId;
    /** The changed keys of one table, to sort; grows to the most one table changed between two checkpoints. */
    private long[] changedKeys = new long[64];
    private FaultLog faults;
    private final List<CommittedOutput> outputs = new ArrayList<>();
    /** The checkpoints resumed from, a full one first: headers only when read from files, whole when restored from bytes. */
    private final List<Checkpoint> resumedFrom;
    /** The files of {@link #resumedFrom}, verified once; empty when restored from bytes. */
    private final List<CheckpointFile.Verified> resumedFiles;
    /** The run's parameter changes, which each checkpoint carries; null if none were handed over. */
    private ParamChanges paramChanges;
    /** The run's error bound, whose window each checkpoint carries; null if none. */
    private ErrorBound errorBound;
    /** The chain whose checker tally the checkpoints carry, or null. */
    private ChainRuntime checkerRuntime;
    private long lastId;
    private long lastFullId;
    private long lastInputPackets;
    private String finalCheckpoint;
    private long batchesSince;
    private long nextDueNs = Long.MIN_VALUE;

    private long taken;
    private long fullTaken;
    private long bytesWritten;
    private long entriesWritten;
    private long stateEntriesVisited;
    private long tablesWhole;
    private long[] takeNs = new long[64];
    /** Time in the three parts of {@link #take}: sinks' commit, finding the changes, writing the file. */
    private final long[] partNs = new long[3];
    private final long createdNs = System.nanoTime();
    private long resumeNs = -1;
    private boolean replayable = true;
    /** For a restore from bytes: the packet time the restored state had reached; Long.MIN_VALUE otherwise. */
    private long resumeClockNs = Long.MIN_VALUE;
    /** False for a checkpointer from {@link #restoring}: its checkpoints are someone else's to take. */
    private boolean writes = true;

    private Checkpointer(
        final CheckpointSettings settings, final TableCatalog catalog, final long chainId, final List<Checkpoint> resumedFrom,
        final List<CheckpointFile.Verified> resumedFiles)
    {
        this.resumedFiles = List.copyOf(resumedFiles);
        this.settings = settings;
        this.store = new CheckpointStore(settings.directory());
        this.catalog = catalog;
        this.chainId = chainId;
        this.resumedFrom = List.copyOf(resumedFrom);
        if (!resumedFrom.isEmpty())
        {
            final Checkpoint last = resumedFrom.get(resumedFrom.size() - 1);
            lastId = last.id();
            lastFullId = resumedFrom.get(0).id();
            lastInputPackets = last.inputPackets();
            batchesSince = 0;
        }
    }

    /**
     * A checkpointer for a fresh run.
     *
     * @throws IOException with a {@code fix:} line if the directory already holds checkpoints (a
     *                     fresh run must not mix its checkpoints with another run's).
     */
    public static Checkpointer start(final CheckpointSettings settings, final ChainSpec chain, final TableCatalog catalog) throws IOException
    {
        return start(settings, fingerprint(chain), catalog);
    }

    static Checkpointer start(final CheckpointSettings settings, final long chainId, final TableCatalog catalog) throws IOException
    {
        final CheckpointStore store = new CheckpointStore(settings.directory());
        if (!store.files().isEmpty())
        {
            throw new IOException("checkpoint directory " + settings.directory() + " already holds checkpoints of a run\n"
                + "fix: --resume " + settings.directory() + " to continue that run, or remove its ckpt-* files, or choose another directory");
        }
        Files.createDirectories(settings.directory());
        return new Checkpointer(settings, catalog, chainId, List.of(), List.of());
    }

    /**
     * A checkpointer that restores {@code from}, a full checkpoint held in memory (Flink's managed
     * state), and takes none of its own: never due, and a stopped run's final one is skipped. The run's source is not repositioned (the caller hands the
     * executor only the packets after the cut); instead packet time and the housekeeping ticks
     * resume at the checkpoint's packet time ({@link #resumeClockNs()}).
     *
     * @param from the checkpoint to restore, or null to start empty.
     */
    public static Checkpointer restoring(final ChainSpec chain, final TableCatalog catalog, final Checkpoint from)
    {
        final CheckpointSettings none = new CheckpointSettings(Path.of("."), Long.MAX_VALUE, 0, 1);
        final Checkpointer checkpointer = new Checkpointer(none, catalog, fingerprint(chain), from == null ? List.of() : List.of(from),
            List.of());
        checkpointer.replayable = false;
        checkpointer.writes = false;
        checkpointer.resumeClockNs = from == null ? Long.MIN_VALUE : from.packetTimeNs();
        return checkpointer;
    }

    /**
     * @return for a checkpointer from {@link #restoring}, the packet time the executor's clock and
     *         housekeeping ticks resume at (as if the cut's last packet had just been read);
     *         Long.MIN_VALUE when the executor repositions the source instead, or starts fresh.
     */
    public long resumeClockNs()
    {
        return resumeClockNs;
    }

    /**
     * A checkpointer for a resumed run: loads the newest restorable checkpoint of {@code chain}.
     * With none (the run was stopped before its first checkpoint) the run starts from the beginning.
     *
     * @param refusals told about each damaged or foreign checkpoint passed over.
     * @throws IOException if the directory cannot be read.
     */
    public static Checkpointer resume(
        final CheckpointSettings settings, final ChainSpec chain, final TableCatalog catalog, final Consumer<CheckpointException> refusals)
        throws IOException
    {
        return resume(settings, fingerprint(chain), catalog, refusals);
    }

    static Checkpointer resume(
        final CheckpointSettings settings, final long chainId, final TableCatalog catalog, final Consumer<CheckpointException> refusals)
        throws IOException
    {
        final List<CheckpointFile.Verified> files = new CheckpointStore(settings.directory()).newestRestorable(chainId, refusals);
        final List<Checkpoint> headers = new ArrayList<>(files.size());
        for (final CheckpointFile.Verified file : files)
        {
            headers.add(file.checkpoint());
        }
        Files.createDirectories(settings.directory());
        return new Checkpointer(settings, catalog, chainId, headers, files);
    }

    /**
     * @return the fingerprint of what decides a run's outputs: the VNFs (names, types,
     *         configuration), the edges, and the traffic. Executor, threads and batch settings are
     *         left out: every executor gives the oracle's outputs, so a run may resume on another.
     */
    public static long fingerprint(final ChainSpec chain)
    {
        final StringBuilder text = new StringBuilder(chain.name()).append('\n');
        for (final VnfNode node : chain.vnfs())
        {
            text.append(node.name()).append(' ').append(node.factory().type()).append(' ')
                .append(new TreeMap<>(node.config().asMap())).append('\n');
        }
        for (final EdgeSpec edge : chain.edges())
        {
            text.append(edge.from()).append(' ').append(edge.output()).append(' ').append(edge.whenText()).append(' ')
                .append(edge.to()).append('\n');
        }
        text.append(chain.settings().traffic());
        final byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        long hash = 0xcbf29ce484222325L;
        for (final byte b : bytes)
        {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return hash;
    }

    /**
     * The run's fault list: each checkpoint carries it as it stood at its cut, and a resumed run's
     * {@link #restore} starts it from the checkpoint's.
     */
    public void carryFaults(final FaultLog faults)
    {
        this.faults = faults;
    }

    /**
     * The run's error bound: each checkpoint carries its window as it stood at the cut, and a
     * resumed run's {@link #restore} continues it, so the resumed run stops at the packet an
     * uninterrupted one would. Set before {@link #restore}.
     */
    public void carryErrorBound(final ErrorBound errorBound)
    {
        this.errorBound = errorBound;
    }

    /**
     * The run's changes of VNF parameters ({@code POST /params/<vnf>}, a change script): each
     * checkpoint carries those applied before its cut, and a resumed run's {@link #restore} applies
     * them to the chain's VNF instances before the first packet, so it goes on with the
     * parameters in force at the cut, and lists them among its own. Set before {@link #restore}.
     */
    public void carryParamChanges(final ParamChanges paramChanges)
    {
        this.paramChanges = paramChanges;
    }

    /**
     * The chain whose state checkers' tally each checkpoint carries as it stood at the cut, and
     * a resumed run's {@link #restore} starts from the checkpoint's, so the resumed run's report
     * counts every check of the run. Set before {@link #restore}.
     */
    public void carryCheckers(final ChainRuntime runtime)
    {
        this.checkerRuntime = runtime;
    }

    private static Checkpoint.Checkers carried(final CheckerReport soFar)
    {
        return new Checkpoint.Checkers(soFar.checks(), soFar.violations());
    }

    /** Registers a sink that each checkpoint commits. */
    public void addOutput(final CommittedOutput output)
    {
        outputs.add(output);
    }

    /**
     * @return the checkpoint the run resumes from, or null when it starts from the beginning. Read
     *         from a file, its tables name their sections but hold no entries: {@link #restore}
     *         streams them from the file.
     */
    public Checkpoint resumedFrom()
    {
        return resumedFrom.isEmpty() ? null : resumedFrom.get(resumedFrom.size() - 1);
    }

    /**
     * Says whether the source can be replayed. A live port cannot: a resumed run restores state
     * but skips nothing, so its outputs are at-least-once.
     */
    public void replayableSource(final boolean replayable)
    {
        this.replayable = replayable;
    }

    /**
     * @return packets of the source the restored state holds: the resumed run skips them (0 for a
     *         fresh run, and for a source that cannot be replayed).
     */
    public long resumeInputPackets()
    {
        final Checkpoint from = resumedFrom();
        return from == null || !replayable ? 0 : from.inputPackets();
    }

    /** @return the committed position of sink {@code name} to resume at, or null to start it empty. */
    public Checkpoint.Output resumedOutput(final String name)
    {
        final Checkpoint from = resumedFrom();
        if (from != null)
        {
            for (final Checkpoint.Output output : from.outputs())
            {
                if (output.name().equals(name))
                {
                    return output;
                }
            }
        }
        return null;
    }

    /** @return true if {@link #restore} will load a checkpoint (a resumed run), false for a fresh run. */
    public boolean restores()
    {
        return !resumedFrom.isEmpty();
    }

    /**
     * Loads the resumed checkpoint's tables into {@code state} (empty, between batches), and its
     * fault list into the run's; returns its counters. A fresh run loads nothing. Either way, a
     * checkpointer that takes checkpoints switches the state's change tracking on here, so that its
     * next checkpoint writes only what changed after this point.
     *
     * @return the counters to add to the run's, or null for a fresh run.
     * @throws IOException if a checkpoint names a table this chain does not have.
     */
    public long[] restore(final ChangeTrackingState state) throws IOException
    {
        if (resumedFrom.isEmpty())
        {
            if (writes)
            {
                state.trackChanges();
            }
            return null;
        }
        for (final Checkpoint checkpoint : resumedFrom)
        {
            if (checkpoint.tables().size() != catalog.size())
            {
                throw new CheckpointException(store.file(checkpoint.id(), checkpoint.full()), "holds " + checkpoint.tables().size()
                    + " tables, the chain has " + catalog.size(), "resume with the chain the run was started with");
            }
            for (int t = 0; t < catalog.size(); t++)
            {
                final Checkpoint.Table table = checkpoint.tables().get(t);
                if (!table.name().equals(catalog.qualifiedName(t)))
                {
                    throw new CheckpointException(store.file(checkpoint.id(), checkpoint.full()), "table " + t + " is " + table.name()
                        + ", the chain's is " + catalog.qualifiedName(t), "resume with the chain the run was started with");
                }
            }
        }
        // a whole section replaces the table: each table starts from its last one (the full checkpoint's at the latest)
        final int[] from = new int[catalog.size()];
        for (int t = 0; t < catalog.size(); t++)
        {
            for (int c = 0; c < resumedFrom.size(); c++)
            {
                from[t] = resumedFrom.get(c).tables().get(t).whole() ? c : from[t];
            }
        }
        if (resumedFiles.isEmpty())
        {
            for (int t = 0; t < catalog.size(); t++)
            {
                for (int c = from[t]; c < resumedFrom.size(); c++)
                {
                    final Checkpoint.Table table = resumedFrom.get(c).tables().get(t);
                    final long[] keys = table.keys();
                    final long[] values = table.values();
                    for (int i = 0; i < keys.length; i++)
                    {
                        state.put(t, keys[i], values[i]);
                    }
                }
            }
        }
        else
        {
            for (int c = 0; c < resumedFiles.size(); c++)
            {
                streamInto(state, resumedFiles.get(c), c, from);
            }
        }
        if (writes && state.trackChanges())
        {
            // tracking was on already: the restore's puts are no changes since the last checkpoint
            for (int t = 0; t < catalog.size(); t++)
            {
                state.forgetChanges(t);
            }
        }
        if (faults != null)
        {
            faults.restore(resumedFrom().faults());
        }
        if (checkerRuntime != null)
        {
            checkerRuntime.restoreCheckers(resumedFrom().checkers().checks(), resumedFrom().checkers().violations());
        }
        if (errorBound != null)
        {
            errorBound.restore(resumedFrom().errorWindow());
        }
        final List<ParamChanges.Applied> changed = resumedFrom().paramChanges();
        if (changed != null && !changed.isEmpty())
        {
            if (paramChanges == null)
            {
                throw new IllegalStateException("checkpoint " + resumedFrom().id() + " carries " + changed.size() + " parameter"
                    + " change(s), but the run's were not handed to the checkpointer (carryParamChanges)");
            }
            paramChanges.restore(changed);
        }
        return resumedFrom().counters();
    }

    /**
     * Reads checkpoint file {@code c} of the resumed chain a second time, applying each entry of
     * the tables it is due for ({@code c >= from[t]}) as it is read: no checkpoint is ever held
     * whole in memory. The file must end with the checksum it had when it was verified.
     */
    private void streamInto(final ChangeTrackingState state, final CheckpointFile.Verified verified, final int c, final int[] from)
        throws CheckpointException
    {
        try (CheckpointFile.Reader reader = CheckpointFile.Reader.open(verified.file(), chainId))
        {
            int t = 0;
            while (reader.nextTable())
            {
                final int table = t++;
                if (c >= from[table])
                {
                    reader.readEntries((key, value) -> state.put(table, key, value));
                }
                else
                {
                    reader.readEntries((key, value) ->
                    {
                    });
                }
            }
            if (reader.finish() != verified.checksum())
            {
                throw new CheckpointException(verified.file(), "changed while the run resumed from it",
                    "leave the checkpoint directory alone while a run uses it, then resume again");
            }
        }
    }

    /**
     * Counts a batch boundary.
     *
     * @param packetTimeNs packet time of the batch's last packet.
     * @return true if a checkpoint is due now.
     */
    public boolean dueAfterBatch(final long packetTimeNs)
    {
        if (!writes)
        {
            return false;
        }
        if (settings.everyBatches() > 0)
        {
            if (++batchesSince >= settings.everyBatches())
            {
                batchesSince = 0;
                return true;
            }
            return false;
        }
        final long every = settings.everyPacketTimeNs();
        if (nextDueNs == Long.MIN_VALUE)
        {
            nextDueNs = Math.floorDiv(packetTimeNs, every) * every + every;
            return false;
        }
        if (packetTimeNs >= nextDueNs)
        {
            nextDueNs = Math.floorDiv(packetTimeNs, every) * every + every;
            return true;
        }
        return false;
    }

    /**
     * Takes a checkpoint: commits the sinks, then writes the state changed since the last
     * checkpoint (all of it for a full one) with the positions.
     *
     * @param state        the committed state, not changing while this runs.
     * @param inputPackets packets of the source the state holds, counted from the run's first.
     * @param packetTimeNs packet time of the last of them.
     * @param counters     the run's counters ({@code RunStats.counters()}) at this cut.
     * @throws IOException if a sink cannot be synced or the checkpoint cannot be written.
     */
    public void take(final ChangeTrackingState state, final long inputPackets, final long packetTimeNs, final long[] counters)
        throws IOException
    {
        if (!writes)
        {
            throw new IllegalStateException("a checkpointer that only restores takes no checkpoints");
        }
        final long startNs = System.nanoTime();
        final List<Checkpoint.Output> positions = new ArrayList<>(outputs.size());
        for (final CommittedOutput output : outputs)
        {
            positions.add(output.commit());
        }
        final long committedNs = System.nanoTime();
        partNs[0] += committedNs - startNs;
        final long id = lastId + 1;
        final boolean full = lastId == 0 || (id - lastFullId) >= settings.fullEvery();
        // off until now only if no restore ran (a test's state): nothing is known, every table goes whole
        final boolean tracked = state.trackChanges();
        final List<FaultLog.CarriedFault> carried = faults == null ? List.of() : faults.carried(inputPackets);
        final Checkpoint.Checkers checkers = checkerRuntime == null ? Checkpoint.Checkers.NONE : carried(checkerRuntime.checkersSoFar());
        final Checkpoint header = new Checkpoint(id, full, full ? 0 : lastId, chainId, inputPackets, packetTimeNs, positions,
            counters, carried, errorBound == null ? ErrorBound.Window.FRESH : errorBound.window(), paramChangesAt(inputPackets),
            checkers, List.of());
        long sectionsNs = 0;
        try (CheckpointFile.Writer writer = CheckpointFile.Writer.toFile(store.file(id, full)))
        {
            writer.header(header);
            writer.tables(catalog.size());
            final long sectionsStartNs = System.nanoTime();
            for (int t = 0; t < catalog.size(); t++)
            {
                final int changed = full || !tracked ? -1 : state.changedKeyCount(t);
                if (changed < 0)
                {
                    writeWhole(writer, state, t);
                }
                else
                {
                    writeChanges(writer, state, t, changed);
                }
            }
            sectionsNs = System.nanoTime() - sectionsStartNs;
            bytesWritten += writer.commit();
        }
        for (int t = 0; t < catalog.size(); t++)
        {
            state.forgetChanges(t);
        }
        partNs[1] += sectionsNs;
        partNs[2] += System.nanoTime() - committedNs - sectionsNs;
        lastId = id;
        lastInputPackets = inputPackets;
        if (full)
        {
            // keep the chain before this one as the fallback should this one turn out damaged
            if (lastFullId != 0)
            {
                store.deleteOlderThan(lastFullId);
            }
            lastFullId = id;
            fullTaken++;
        }
        if (taken == takeNs.length)
        {
            takeNs = Arrays.copyOf(takeNs, takeNs.length * 2);
        }
        takeNs[(int)taken++] = System.nanoTime() - startNs;
    }

    /** @return the parameter changes in force at a cut after {@code inputPackets} packets. */
    private List<ParamChanges.Applied> paramChangesAt(final long inputPackets)
    {
        if (paramChanges == null)
        {
            return List.of();
        }
        // changes are applied with nothing in flight, so none applied yet lies past a cut being taken; the filter is a guard
        final List<ParamChanges.Applied> applied = paramChanges.applied();
        final List<ParamChanges.Applied> atCut = new ArrayList<>(applied.size());
        for (final ParamChanges.Applied change : applied)
        {
            if (change.atPacket() <= inputPackets)
            {
                atCut.add(change);
            }
        }
        return atCut;
    }

    /**
     * Takes the final checkpoint of a run stopped before the end of its traffic (a signal, the
     * error bound), at the boundary after its last batch, once that batch's packets have reached
     * the sinks: a resume then goes on from exactly where the run stopped. Nothing is written if
     * the last checkpoint is already at this cut. Arguments as for {@link #take}.
     *
     * @throws IOException if a sink cannot be synced or the checkpoint cannot be written.
     */
    public void takeFinal(final ChangeTrackingState state, final long inputPackets, final long packetTimeNs, final long[] counters)
        throws IOException
    {
        if (!writes)
        {
            finalCheckpoint = "no final checkpoint: the checkpoints are the caller's (Flink's)";
            return;
        }
        if (inputPackets == lastInputPackets)
        {
            finalCheckpoint = lastId == 0 ? "no final checkpoint: the run stopped before its first packet"
                : "final checkpoint: checkpoint " + lastId + " is already at packet " + inputPackets;
            return;
        }
        take(state, inputPackets, packetTimeNs, counters);
        finalCheckpoint = "final checkpoint " + lastId + " taken at packet " + inputPackets;
    }

    /**
     * Records that a run stopped before the end of its traffic takes no final checkpoint: IP
     * fragments were held aside at its last batch boundary, so not every packet read is in the
     * state and the outputs, and that boundary is no consistent cut. A resume starts from the
     * last checkpoint taken.
     *
     * @param heldFragments the fragments held at the stop.
     */
    public void skipFinal(final int heldFragments)
    {
        finalCheckpoint = "no final checkpoint: " + heldFragments + " IP fragment(s) were held waiting for their datagram's"
            + " first fragment when the run stopped, so the stop is no consistent cut; a resume starts from "
            + (lastId == 0 ? "the first packet (no checkpoint was taken)" : "checkpoint " + lastId + " at packet " + lastInputPackets);
    }

    /**
     * @return what a run stopped before the end of its traffic did about its final checkpoint
     *         (taken, already there, or skipped and why), or null if the run was not stopped.
     */
    public String finalCheckpoint()
    {
        return finalCheckpoint;
    }

    /** Table {@code t}'s section of changes: each changed key, ascending, with its value now (a deleted key's is the initial value). */
    private void writeChanges(final CheckpointFile.Writer writer, final ChangeTrackingState state, final int t, final int changed)
        throws IOException
    {
        if (changedKeys.length < changed)
        {
            changedKeys = new long[Math.max(changed, changedKeys.length * 2)];
        }
        final long[] keys = changedKeys;
        state.copyChangedKeys(t, keys);
        Arrays.sort(keys, 0, changed);
        writer.beginTable(catalog.qualifiedName(t), catalog.spec(t).initialValue(), false, changed);
        for (int i = 0; i < changed; i++)
        {
            writer.entry(keys[i], state.get(t, keys[i]));
        }
        writer.endTable();
        stateEntriesVisited += changed;
        entriesWritten += changed;
    }

    /** Table {@code t} whole, streamed from where it lives. */
    private void writeWhole(final CheckpointFile.Writer writer, final ChangeTrackingState state, final int t) throws IOException
    {
        final int entries = state.size(t);
        writer.beginTable(catalog.qualifiedName(t), catalog.spec(t).initialValue(), true, entries);
        try
        {
            state.forEachEntry(t, (key, value) ->
            {
                try
                {
                    writer.entry(key, value);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            });
        }
        catch (final UncheckedIOException e)
        {
            throw e.getCause();
        }
        writer.endTable();
        stateEntriesVisited += entries;
        entriesWritten += entries;
        tablesWhole++;
    }

    /** Called by the executor once state is restored and the source repositioned: the resume is over. */
    public void resumed()
    {
        resumeNs = System.nanoTime() - createdNs;
    }

    /**
     * @return how long the resume took, from loading the checkpoint files to the source
     *         repositioned (state restored, packets skipped), or -1 before {@link #resumed()}.
     */
    public long resumeNs()
    {
        return resumeNs;
    }

    /** @return checkpoints taken by this run (not those of the run it resumed). */
    public long taken()
    {
        return taken;
    }

    /** @return full checkpoints among {@link #taken()}. */
    public long fullTaken()
    {
        return fullTaken;
    }

    /** @return bytes of checkpoint files written. */
    public long bytesWritten()
    {
        return bytesWritten;
    }

    /** @return table entries written over every checkpoint. */
    public long entriesWritten()
    {
        return entriesWritten;
    }

    /**
     * @return committed entries the checkpoints read, over every checkpoint: a changed key each in
     *         an incremental section, every entry of a table written whole.
     */
    public long stateEntriesVisited()
    {
        return stateEntriesVisited;
    }

    /** @return table sections written whole, over every checkpoint (every table of a full one, and overflowed change logs). */
    public long tablesWrittenWhole()
    {
        return tablesWhole;
    }

    /** @return longs the checkpointer itself holds for the changed keys (its sort array): no copy of any table. */
    public int heapKeySlots()
    {
        return changedKeys.length;
    }

    /** @return the time each checkpoint took, in order (sinks' sync included). */
    public long[] takeNs()
    {
        return Arrays.copyOf(takeNs, (int)taken);
    }

    /**
     * @return total time of the three parts of every checkpoint: committing the sinks (flush,
     *         fsync), the table sections (reading the changed keys or the whole tables, sorting,
     *         encoding them into the file's buffer), the rest of the file (header, fsync, rename).
     */
    public long[] partNs()
    {
        return partNs.clone();
    }

    /** @return the checkpoint directory. */
    public CheckpointStore store()
    {
        return store;
    }
}
