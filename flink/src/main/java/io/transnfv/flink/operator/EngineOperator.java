package io.transnfv.flink.operator;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.chain.VnfCounters;
import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.flink.ChainSource;
import io.transnfv.flink.EngineFactory;
import io.transnfv.flink.route.PacketRouter;
import io.transnfv.vnf.api.StateReader;
import io.transnfv.vnf.instance.TableCatalog;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One TransNFV engine per parallel subtask. Each {@link PacketBatch} is handed to the engine,
 * which runs on its own worker threads; {@link #processElement} returns once at most
 * {@link #IN_FLIGHT_BATCHES} batches are still in the engine, so that Flink delivers the next
 * batch while the engine works on the last (the engine reads on while the task thread waits for
 * Flink). On a checkpoint barrier, {@link #snapshotState} first waits until the engine has
 * finished every packet handed over (or holds it as an IP fragment waiting for its first): the
 * engine is then at a batch boundary with no transaction in flight, and so is the snapshot. The snapshot is the engine's own
 * checkpoint ({@link io.transnfv.engine.checkpoint.CheckpointFile}, every table in full, the counters, the packet time) in
 * operator list state; the outputs produced since the previous barrier are staged and committed
 * when the checkpoint completes ({@link CommittedOutputs}). After a failure Flink restores the
 * last completed checkpoint into a fresh engine and the sequence source replays the batches after
 * it, so the committed outputs and the final state equal those of a run without failures.
 *
 * <p>Each subtask's snapshot is one element of a union list state ({@link SubtaskShare}), with
 * the routing hash of every entry ({@link EntryOwners}). A restore at the parallelism of the
 * snapshot gives each subtask its own share back; a restore at another one (a savepoint resumed
 * with another {@code --parallelism}) gives each subtask the entries whose routing hash maps to it
 * under the new parallelism, and subtask 0 the counters and the staged outputs of all
 * ({@link SubtaskShare#redistribute}). The position of the run is the sequence source's, which
 * does not depend on this operator's parallelism.
 */
public final class EngineOperator extends AbstractStreamOperator<Long>
    implements OneInputStreamOperator<PacketBatch, Long>, BoundedOneInput
{
    private static final long serialVersionUID = 1L;
    /** Batches handed to the engine and not yet finished when {@link #processElement} returns. */
    static final int IN_FLIGHT_BATCHES = 4;

    private final ChainSource chain;
    private final EngineFactory engines;
    private final String outputDirectory;
    private final FailurePlan failures;

    private transient ChainSpec spec;
    private transient int subtask;
    private transient int attempt;
    private transient ChainExecutor executor;
    private transient HandOverSource handOver;
    private transient Thread engineThread;
    private transient volatile Throwable engineFailure;
    private transient AtomicLong finished;
    private transient OutputPart part;
    private transient CommittedOutputs outputs;
    private transient ListState<byte[]> shareState;
    private transient Checkpoint restored;
    private transient EntryOwners owners;
    private transient boolean resumedFromSnapshot;
    private transient boolean firstPacketNoted;
    private transient long handed;
    /** {@link #handed} as the engine's egress thread may read it. */
    private transient volatile long handedVisible;
    /** When the engine last finished every packet handed over, in epoch microseconds; -1 before it did in this job. */
    private transient volatile long caughtUpMicros;
    private transient long batches;
    private transient long lastTimeNs;
    private transient boolean runDone;

    /**
     * @param chain           the chain every subtask loads.
     * @param engines         creates each subtask's engine.
     * @param outputDirectory where outputs are staged and committed, shared by the subtasks.
     * @param failures        failures to inject (tests), or {@link FailurePlan#NONE}.
     */
    public EngineOperator(final ChainSource chain, final EngineFactory engines, final String outputDirectory, final FailurePlan failures)
    {
        this.chain = chain;
        this.engines = engines;
        this.outputDirectory = outputDirectory;
        this.failures = failures;
    }

    @Override
    public void initializeState(final StateInitializationContext context) throws Exception
    {
        super.initializeState(context);
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        spec = chain.load();
        finished = new AtomicLong();
        part = new OutputPart();
        outputs = new CommittedOutputs(Path.of(outputDirectory), subtask);
        shareState = context.getOperatorStateStore().getUnionListState(
            new ListStateDescriptor<>("transnfv-subtask-share", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        final ChainRuntime probeRuntime = new ChainRuntime(spec);
        final Partitioning partitioning = Partitioning.of(probeRuntime);
        owners = new EntryOwners(probeRuntime, new PacketRouter(partitioning.routing(), 1));
        lastTimeNs = Long.MIN_VALUE;
        if (!context.isRestored())
        {
            return;
        }
        final FailurePlan.Point due = failures.due(attempt, FailurePlan.Where.RESTORE, subtask, 0);
        if (due != null)
        {
            throw new FailurePlan.InjectedFailure(due, attempt);
        }
        final List<byte[]> shares = new ArrayList<>();
        shareState.get().forEach(shares::add);
        if (shares.isEmpty())
        {
            return;
        }
        resumedFromSnapshot = attempt == 0;
        final int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        final long chainId = Checkpointer.fingerprint(spec);
        SubtaskShare mine = null;
        if (SubtaskShare.parallelismOf(shares.get(0)) == parallelism)
        {
            // as taken: only this subtask's own share is read in full
            for (final byte[] bytes : shares)
            {
                if (SubtaskShare.subtaskOf(bytes) == subtask)
                {
                    mine = SubtaskShare.fromBytes(bytes, chainId);
                }
            }
            if (mine == null)
            {
                throw new IllegalStateException("the snapshot holds no share of subtask " + subtask + " of " + parallelism);
            }
        }
        else
        {
            final List<SubtaskShare> all = new ArrayList<>(shares.size());
            for (final byte[] bytes : shares)
            {
                all.add(SubtaskShare.fromBytes(bytes, chainId));
            }
            all.sort(Comparator.comparingInt(SubtaskShare::subtask));
            mine = SubtaskShare.redistribute(all, subtask, parallelism, partitioning);
        }
        batches = mine.batches();
        handed = mine.handed();
        lastTimeNs = mine.lastTimeNs();
        restored = mine.checkpoint();
        for (int t = 0; t < mine.owners().length; t++)
        {
            owners.restore(t, restored.tables().get(t).keys(), mine.owners()[t]);
        }
        outputs.restore(mine.staged());
        // the restored checkpoint completed: what it staged is committed, whether or not this subtask heard so before failing
        outputs.commitUpTo(Long.MAX_VALUE);
    }

    @Override
    public void open() throws Exception
    {
        super.open();
        executor = engines.create(spec);
        executor.checkpointWith(Checkpointer.restoring(spec, executor.runtime().catalog(), restored));
        // the VNFs' own counters come back with the engine's checkpoint (ChainRuntime.checkpointCounters)
        finished.set(handed);
        handedVisible = handed;
        caughtUpMicros = -1;
        final int maxFrameBytes;
        try (PacketSource traffic = PacketSources.open(spec.settings().traffic()))
        {
            maxFrameBytes = traffic.maxFrameBytes();
        }
        handOver = new HandOverSource(maxFrameBytes, "flink subtask " + subtask + " of "
            + getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
        final PacketListener listener = listener();
        engineThread = new Thread(() ->
        {
            try
            {
                executor.run(handOver, listener);
            }
            catch (final Throwable t)
            {
                engineFailure = t;
            }
        }, "transnfv-flink-engine-" + subtask);
        engineThread.setDaemon(true);
        engineThread.start();
    }

    /** Engine thread: each finished packet's record and, if forwarded, its frame, into the part being filled. */
    private PacketListener listener()
    {
        final StringBuilder line = new StringBuilder(256);
        return (record, buffer, packet) ->
        {
            line.setLength(0);
            record.format(line, executor.runtime(), packet);
            part.record(record.sequence(), line);
            if (!record.dropped())
            {
                part.frame(record.sequence(), buffer);
            }
            if (finished.incrementAndGet() == handedVisible)
            {
                // every packet handed over is out: the last emit so far, timed once per catch-up, not per packet
                caughtUpMicros = ResumeMarks.nowMicros();
            }
        };
    }

    @Override
    public void processElement(final StreamRecord<PacketBatch> element) throws Exception
    {
        final PacketBatch batch = element.getValue();
        final FailurePlan.Point due = failures.due(attempt, FailurePlan.Where.BATCH, subtask, batches);
        if (due != null)
        {
            throw new FailurePlan.InjectedFailure(due, attempt);
        }
        for (int i = 0, at = 0; i < batch.count(); i++, at = batch.next(at))
        {
            lastTimeNs = Math.max(lastTimeNs, batch.timestampNs(at));
        }
        handed += batch.count();
        // before the hand-over: the egress sees the new total before it can finish the batch's packets
        handedVisible = handed;
        handOver.offer(batch);
        if (resumedFromSnapshot && !firstPacketNoted)
        {
            firstPacketNoted = true;
            ResumeMarks.noteFirstPacket(Path.of(outputDirectory), subtask);
        }
        // while the engine works on the batch: which entries its packets touch, for a restore at another parallelism
        owners.observe(batch);
        awaitFinished((long)IN_FLIGHT_BATCHES * batch.count());
        batches++;
        output.collect(new StreamRecord<>((long)batch.count()));
    }

    /**
     * Waits until every packet handed over but {@code inFlight} is finished or held as a fragment,
     * or the engine failed: the listener has seen it, and the engine has counted it (its egress
     * counts a batch after handing the batch's packets to the listener, and a snapshot must not
     * miss that count).
     */
    private void awaitFinished(final long inFlight) throws Exception
    {
        while (Math.min(finished.get(), executor.stats().packetsFinished()) + executor.heldFragments() < handed - inFlight)
        {
            failIfEngineFailed();
            if (!engineThread.isAlive() && engineFailure == null)
            {
                throw new IllegalStateException("the engine of subtask " + subtask + " ended its run before its input ended");
            }
            LockSupport.parkNanos(20_000);
        }
        failIfEngineFailed();
    }

    private void failIfEngineFailed() throws Exception
    {
        final Throwable t = engineFailure;
        if (t instanceof Exception e)
        {
            throw e;
        }
        if (t != null)
        {
            throw new IllegalStateException("the engine of subtask " + subtask + " failed: " + t, t);
        }
    }

    @Override
    public void snapshotState(final StateSnapshotContext context) throws Exception
    {
        super.snapshotState(context);
        final FailurePlan.Point due = failures.due(attempt, FailurePlan.Where.SNAPSHOT, subtask, batches);
        if (due != null)
        {
            throw new FailurePlan.InjectedFailure(due, attempt);
        }
        if (!runDone)
        {
            // a consistent cut: everything handed over is in the state and the outputs
            awaitFinished(0);
        }
        if (!runDone && executor.heldFragments() > 0)
        {
            // the packets read are not all in the state and the outputs: no consistent cut here
            throw new IllegalStateException("subtask " + subtask + " declines checkpoint " + context.getCheckpointId() + ": "
                + executor.heldFragments() + " IP fragment(s) wait for their datagram's first fragment");
        }
        final long id = context.getCheckpointId();
        final byte[] staged = part.take();
        if (staged.length > 0)
        {
            outputs.stage(id, staged);
        }
        // the tables closed to new entries and the VNFs' own counters travel with the run's, as in the engine's own checkpoints
        final long[] counters = executor.runtime().checkpointCounters(runDone ? executor.stats().counters() : executor.countersAtBoundary());
        final List<Checkpoint.Table> tables = tables();
        final long[][] keys = new long[tables.size()][];
        final long[][] hashes = new long[tables.size()][];
        for (int t = 0; t < tables.size(); t++)
        {
            keys[t] = tables.get(t).keys();
            hashes[t] = owners.of(t, keys[t]);
        }
        owners.keepOnly(keys, hashes);
        final Checkpoint checkpoint = new Checkpoint(id, true, 0, Checkpointer.fingerprint(spec), handed,
            lastTimeNs == Long.MIN_VALUE ? 0 : lastTimeNs, List.of(), counters, tables);
        if (!runDone && ResumeMarks.paused(Path.of(outputDirectory)))
        {
            // the source holds for a stop: this cut (the stop's savepoint is the last of them) is where the job's summary stands
            final StringWriter state = new StringWriter();
            executor.writeState(state);
            final OutputPart end = new OutputPart();
            // no fragment is held here (the snapshot declines otherwise), so the engine caught up with its last packet
            end.end(attempt, executor.countersAtBoundary(), VnfCounters.values(executor.runtime()), state.toString(),
                executor.stats().latencyNs(), executor.stats().latencyOverflows(), caughtUpMicros);
            ResumeMarks.noteStoppedEnd(Path.of(outputDirectory), subtask, end.take());
        }
        final int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        shareState.update(List.of(new SubtaskShare(subtask, parallelism, batches, handed, lastTimeNs, checkpoint, hashes,
            outputs.staged()).toBytes()));
    }

    /** @return every table's committed entries, keys ascending (the engine sits at a batch boundary). */
    private List<Checkpoint.Table> tables()
    {
        final TableCatalog catalog = executor.runtime().catalog();
        final StateReader state = executor.committedState().orElseThrow(() -> new IllegalStateException(
            "the " + executor.describe() + " executor cannot give its state; fix: run the tpg or serial executor on Flink"));
        final List<Checkpoint.Table> tables = new ArrayList<>(catalog.size());
        for (int t = 0; t < catalog.size(); t++)
        {
            final long[][] entries = {new long[64], new long[64]};
            final int[] n = {0};
            state.forEach(t, (key, value) ->
            {
                if (n[0] == entries[0].length)
                {
                    entries[0] = Arrays.copyOf(entries[0], n[0] * 2);
                    entries[1] = Arrays.copyOf(entries[1], n[0] * 2);
                }
                entries[0][n[0]] = key;
                entries[1][n[0]++] = value;
            });
            tables.add(new Checkpoint.Table(catalog.qualifiedName(t), catalog.spec(t).initialValue(),
                Arrays.copyOf(entries[0], n[0]), Arrays.copyOf(entries[1], n[0])));
        }
        return tables;
    }

    @Override
    public void notifyCheckpointComplete(final long checkpointId) throws Exception
    {
        super.notifyCheckpointComplete(checkpointId);
        outputs.commitUpTo(checkpointId);
    }

    @Override
    public void endInput() throws Exception
    {
        handOver.end();
        engineThread.join();
        failIfEngineFailed();
        // the engine's run has ended, its last packet out (-1 if it got none in this job); should a packet it held
        // never have reached the listener, no catch-up was timed after it, and the end of the run stands for it
        final long lastEmitMicros = finished.get() == handedVisible ? caughtUpMicros : ResumeMarks.nowMicros();
        runDone = true;
        final StringWriter state = new StringWriter();
        executor.writeState(state);
        part.end(attempt, executor.stats().counters(), VnfCounters.values(executor.runtime()), state.toString(),
            executor.stats().latencyNs(), executor.stats().latencyOverflows(), lastEmitMicros);
    }

    @Override
    public void close() throws Exception
    {
        if (handOver != null)
        {
            handOver.end();
        }
        if (engineThread != null && engineThread.isAlive())
        {
            executor.control().requestStop(RunControl.StopCause.INTERRUPT, "the Flink task closed");
            engineThread.join();
        }
        if (executor != null)
        {
            executor.close();
        }
        super.close();
    }
}
