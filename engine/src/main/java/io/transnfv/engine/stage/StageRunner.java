package io.transnfv.engine.stage;

import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.TableTriggers;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.fragment.FragmentTracker;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * Running the chain's VNFs on a range of a batch's packets: admission (the packet view, the
 * malformed check), pre-processing (declaring each packet's transaction into a chunk's log)
 * and post-processing (acting on the outcome, recording it, routing to the next VNF). Every
 * method works on the packets of one chunk, so workers run chunks of one batch at once; a
 * packet's timestamp, not the worker that handles it, defines its order.
 *
 * <pre>
 *  stage 0     admit ─► entry VNF pre-process ─► chunk log
 *  stage s     post-process VNF s-1 (results of its transactions) ─► route
 *              ─► pre-process VNF s for the chunk's packets now at VNF s ─► chunk log
 *  last        post-process the last VNF
 *  a packet that leaves the chain (dropped, or no edge) is counted where it leaves
 * </pre>
 *
 * <p>A VNF callback that throws costs its packet, not the run: the packet is dropped as the
 * VNF's {@code vnf-error} (a half-declared transaction is discarded), the fault goes to the
 * {@link FaultLog}, and the chunk goes on. Each worker notes which VNF and packet it is in
 * ({@link Worker#where}), for the batch deadline's message.
 *
 * <p>Stateless apart from the chain; the per-worker parts ({@link Worker}) are owned by one
 * worker each.
 */
public final class StageRunner
{
    private final ChainRuntime runtime;
    private final TableTriggers triggers;
    private final int[] vnfOfStage;
    private final FaultLog faults;

    /**
     * @param runtime the chain.
     * @param faults  where faults of VNF code are recorded.
     */
    public StageRunner(final ChainRuntime runtime, final FaultLog faults)
    {
        this.runtime = runtime;
        this.triggers = runtime.triggers();
        this.vnfOfStage = runtime.topologicalOrder();
        this.faults = faults;
    }

    /** @return the number of stages (VNFs). */
    public int stages()
    {
        return vnfOfStage.length;
    }

    /** @return the VNF at stage {@code stage} (topological order). */
    public int vnfAt(final int stage)
    {
        return vnfOfStage[stage];
    }

    /**
     * Stage 0: admits slots {@code [from, to)} of {@code frame} (record reset, packet view,
     * malformed drop, fragments counted) and declares the entry VNF's transactions into
     * {@code log} (cleared). A frame with fragments is declared again after the fragment stage.
     */
    public void admit(final BatchFrame frame, final int from, final int to, final TransactionLog log, final Worker worker)
    {
        log.clear();
        final int entry = vnfOfStage[0];
        final Vnf vnf = runtime.instance(entry).vnf();
        for (int i = from; i < to; i++)
        {
            final PacketRecord record = frame.records[i];
            final PacketFlyweight packet = frame.packets[i];
            final long timeNs = frame.timeNs[i];
            final long sequence = frame.buffers[i].sequence();
            record.reset(sequence, timeNs);
            final PacketBuffer buffer = frame.buffers[i];
            packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
            if (!packet.isValid())
            {
                record.dropAtIngress(packet.malformedReason());
                frame.position[i] = ChainRuntime.EGRESS;
                worker.stats.count(record, frame.buffers[i].length());
                continue;
            }
            frame.position[i] = entry;
            frame.order[i] = sequence;
            if (FragmentTracker.tracks(packet))
            {
                frame.fragments++;
            }
            worker.enter(entry, FaultLog.Callback.PRE_PROCESS, sequence);
            frame.transaction[i] = log.begin(timeNs, sequence, packet);
            try
            {
                vnf.preProcess(packet, log);
                log.end();
            }
            catch (final Throwable t)
            {
                preProcessFailed(frame, i, entry, log, worker, t);
            }
        }
        worker.leave();
    }

    /** Declares the transactions of stage {@code stage}'s VNF for slots {@code [from, to)} now at it into {@code log} (cleared). */
    public void preProcess(
        final BatchFrame frame, final int stage, final int from, final int to, final TransactionLog log, final Worker worker)
    {
        log.clear();
        final int v = vnfOfStage[stage];
        final Vnf vnf = runtime.instance(v).vnf();
        final int[] position = frame.position;
        for (int i = from; i < to; i++)
        {
            if (position[i] == v)
            {
                final PacketRecord record = frame.records[i];
                worker.enter(v, FaultLog.Callback.PRE_PROCESS, record.sequence());
                frame.transaction[i] = log.begin(record.timestampNs(), frame.order[i], frame.packets[i]);
                try
                {
                    vnf.preProcess(frame.packets[i], log);
                    log.end();
                }
                catch (final Throwable t)
                {
                    preProcessFailed(frame, i, v, log, worker, t);
                }
            }
        }
        worker.leave();
    }

    /** The rare path: slot {@code i}'s pre-processing at VNF {@code v} threw. */
    void preProcessFailed(
        final BatchFrame frame, final int i, final int v, final TransactionLog log, final Worker worker, final Throwable t)
    {
        log.discardOpen();
        final PacketRecord record = frame.records[i];
        faults.record(v, FaultLog.Callback.PRE_PROCESS, record.sequence(), t);
        dropAsFault(frame, i, v, worker);
    }

    private void dropAsFault(final BatchFrame frame, final int i, final int v, final Worker worker)
    {
        frame.records[i].fault(v, runtime.instance(v).vnfErrorReason());
        leave(frame, i, worker);
    }

    /** The packet in slot {@code i}, its record's drop written, leaves the chain here. */
    private static void leave(final BatchFrame frame, final int i, final Worker worker)
    {
        frame.position[i] = ChainRuntime.EGRESS;
        worker.stats.count(frame.records[i], frame.buffers[i].length());
    }

    /**
     * Post-processes stage {@code stage}'s VNF for slots {@code [from, to)} at it, whose
     * transactions are in {@code log} from transaction {@code base} on (the chunk's place in the
     * stage's log), and routes each packet on.
     */
    public void postProcess(
        final BatchFrame frame, final int stage, final int from, final int to, final TransactionLog log, final int base,
        final Worker worker)
    {
        final int v = vnfOfStage[stage];
        final Vnf vnf = runtime.instance(v).vnf();
        final int vnfStage = runtime.stageOf(v);
        final TransactionLog.Cursor view = worker.cursor(stage, log);
        final int[] position = frame.position;
        for (int i = from; i < to; i++)
        {
            if (position[i] != v)
            {
                continue;
            }
            view.bind(base + frame.transaction[i]);
            postProcessOne(frame, i, v, vnf, vnfStage, view, worker);
        }
        worker.leave();
    }

    /**
     * Acts on slot {@code i}'s outcome at VNF {@code v} (stage {@code vnfStage}), whose transaction
     * {@code view} is bound to: the aborts that cost the packet, post-processing, triggers, the
     * record, and the route to the next VNF or out of the chain.
     */
    void postProcessOne(
        final BatchFrame frame, final int i, final int v, final Vnf vnf, final int vnfStage, final TransactionView view,
        final Worker worker)
    {
        final int[] position = frame.position;
        final ActionRecorder actions = worker.actions;
        final PacketFlyweight packet = frame.packets[i];
        final PacketRecord record = frame.records[i];
        if (view.abortReason() == TransactionView.FAULT)
        {
            // a function threw (recorded by the executor's fault listener): no post-processing
            dropAsFault(frame, i, v, worker);
            return;
        }
        if (view.abortReason() == TransactionView.STATE_FULL)
        {
            // a write would have added an entry to a table closed at the last capacity check
            record.stateFull(v, runtime.instance(v).stateFullReason());
            leave(frame, i, worker);
            return;
        }
        actions.reset();
        worker.enter(v, FaultLog.Callback.POST_PROCESS, record.sequence());
        try
        {
            vnf.postProcess(packet, view, actions);
        }
        catch (final Throwable t)
        {
            faults.record(v, FaultLog.Callback.POST_PROCESS, record.sequence(), t);
            dropAsFault(frame, i, v, worker);
            return;
        }
        triggers.fire(v, view, actions);
        record.visit(v, view, actions);
        final int next = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(v, actions.output(), packet);
        if (next != ChainRuntime.EGRESS && runtime.stageOf(next) <= vnfStage)
        {
            throw new IllegalStateException("edge from " + runtime.instance(v).name() + " goes backwards");
        }
        position[i] = next;
        if (next == ChainRuntime.EGRESS)
        {
            worker.stats.count(record, frame.buffers[i].length());
        }
    }

    /** One worker's tools for running stages: its action recorder, its result cursor and its counters. */
    public static final class Worker
    {
        final ActionRecorder actions = new ActionRecorder();
        /** What the packets this worker finished did: merged into the run's counters at the end. */
        public final RunStats stats;
        private final TransactionLog[] cursorLogs;
        private final TransactionLog.Cursor[] cursors;
        // where the worker is, written plainly per callback and read racily by the watchdog
        private int vnf = -1;
        private FaultLog.Callback callback;
        private long sequence;

        /**
         * @param stages the chain's stages.
         * @param stats  this worker's counters.
         */
        public Worker(final int stages, final RunStats stats)
        {
            this.stats = stats;
            this.cursorLogs = new TransactionLog[stages];
            this.cursors = new TransactionLog.Cursor[stages];
        }

        void enter(final int vnfIndex, final FaultLog.Callback inCallback, final long packetSequence)
        {
            vnf = vnfIndex;
            callback = inCallback;
            sequence = packetSequence;
        }

        void leave()
        {
            callback = null;
        }

        /**
         * @param runtime the chain, for the VNF's name.
         * @return the VNF callback this worker is in and its packet, e.g. {@code nat preProcess on
         *         packet #42}, or null if it is in none; read by another thread, so only a hint.
         */
        public String where(final ChainRuntime runtime)
        {
            final FaultLog.Callback c = callback;
            final int v = vnf;
            final long s = sequence;
            return c == null || v < 0 ? null : "VNF '" + runtime.instance(v).name() + "' " + c.label() + " on packet #" + s;
        }

        /** @return this worker's cursor over stage {@code stage}'s log (made once per log). */
        TransactionLog.Cursor cursor(final int stage, final TransactionLog log)
        {
            if (cursorLogs[stage] != log)
            {
                cursorLogs[stage] = log;
                cursors[stage] = log.newCursor();
            }
            return cursors[stage];
        }
    }
}
