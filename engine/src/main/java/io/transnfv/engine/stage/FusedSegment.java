package io.transnfv.engine.stage;

import io.transnfv.engine.batch.BatchFrame;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.packet.PacketFlyweight;

/**
 * The stages that touch a table shared by several VNFs, run fused: for each packet of the batch in
 * slot order (the oracle's order), every VNF of the segment on its path pre-processes it, applies
 * its transaction at once to the committed state ({@link SerialApplier}, as the serial schedule
 * does) and post-processes it, before the next packet enters the segment. So a shared table sees
 * the transactions of every VNF that touches it in the oracle's order, also when a later stage
 * writes what an earlier one reads for the next packet (see {@code docs/design/chains.md},
 * "Tables shared across VNFs").
 *
 * <pre>
 *  stages before the segment: as usual, stage by stage
 *  segment [first, last]:     for each slot i in order
 *                               while i is at a VNF v of the segment:
 *                                 pre-process (the first stage's was declared by its STEP)
 *                                 ─► apply in place ─► post-process ─► route
 *  stages after the segment:  as usual, from last + 1
 * </pre>
 *
 * <p>Runs on one worker, between the stages before and after it, when no batch of the executor is
 * open: nothing inside the segment runs in parallel. Allocates nothing per packet.
 */
public final class FusedSegment
{
    private final ChainRuntime runtime;
    private final StageRunner stages;
    private final FaultLog faults;
    private final MultiVersionStateTable state;
    private final int first;
    private final int last;
    private final SerialApplier applier = new SerialApplier();
    private final TransactionLog own = new TransactionLog(1, 64);
    /** The VNF whose transaction the applier runs: it names a state function's fault. */
    private int applying;

    /**
     * @param runtime the chain; its {@link ChainRuntime#fusedFirstStage()} must be a stage.
     * @param stages  runs the VNF code's post-processing.
     * @param faults  where faults of VNF code are recorded.
     * @param state   the committed state the transactions are applied to.
     */
    public FusedSegment(final ChainRuntime runtime, final StageRunner stages, final FaultLog faults, final MultiVersionStateTable state)
    {
        if (runtime.fusedFirstStage() < 0)
        {
            throw new IllegalArgumentException("chain '" + runtime.spec().name() + "' shares no table: it has no fused segment");
        }
        this.runtime = runtime;
        this.stages = stages;
        this.faults = faults;
        this.state = state;
        this.first = runtime.fusedFirstStage();
        this.last = runtime.fusedLastStage();
        applier.admission(runtime.capacities().admission());
        applier.faultListener((log, t, thrown) -> faults.record(applying, FaultLog.Callback.STATE_FUNCTION, log.sequence(t), thrown));
    }

    /** @return the segment's first stage. */
    public int firstStage()
    {
        return first;
    }

    /** @return the segment's last stage. */
    public int lastStage()
    {
        return last;
    }

    /**
     * Runs the segment on {@code frame}, whose packets are at the segment's VNFs or out of the
     * chain, and whose transactions at the first stage are declared in {@code firstLogs}, one log
     * per chunk of {@code chunkPackets} slots. Leaves every packet at a VNF after the segment or out
     * of the chain.
     */
    public void run(final BatchFrame frame, final TransactionLog[] firstLogs, final int chunkPackets, final StageRunner.Worker worker)
    {
        final int[] position = frame.position;
        for (int i = 0; i < frame.count; i++)
        {
            int v = position[i];
            while (v != ChainRuntime.EGRESS && runtime.stageOf(v) <= last)
            {
                final int s = runtime.stageOf(v);
                final Vnf vnf = runtime.instance(v).vnf();
                final TransactionLog log;
                final int t;
                if (s == first)
                {
                    log = firstLogs[i / chunkPackets];
                    t = frame.transaction[i];
                }
                else
                {
                    log = own;
                    t = declare(frame, i, v, vnf, worker);
                    if (t < 0)
                    {
                        break;
                    }
                }
                applying = v;
                applier.apply(log, t, state);
                stages.postProcessOne(frame, i, v, vnf, s, log.view(t), worker);
                v = position[i];
            }
        }
        worker.leave();
    }

    /** @return slot {@code i}'s transaction at VNF {@code v}, declared into {@link #own}; -1 if pre-processing threw (the packet is dropped). */
    private int declare(final BatchFrame frame, final int i, final int v, final Vnf vnf, final StageRunner.Worker worker)
    {
        final TransactionLog log = own;
        final PacketFlyweight packet = frame.packets[i];
        final long sequence = frame.records[i].sequence();
        log.clear();
        worker.enter(v, FaultLog.Callback.PRE_PROCESS, sequence);
        final int t = log.begin(frame.records[i].timestampNs(), frame.order[i], packet);
        try
        {
            vnf.preProcess(packet, log);
            log.end();
        }
        catch (final Throwable thrown)
        {
            stages.preProcessFailed(frame, i, v, log, worker, thrown);
            return -1;
        }
        return t;
    }
}
