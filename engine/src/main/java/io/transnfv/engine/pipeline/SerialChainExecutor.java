package io.transnfv.engine.pipeline;

import io.transnfv.engine.EngineConfiguration;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.fault.ErrorBound;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.fault.RunFailedException;
import io.transnfv.engine.fault.Watchdog;
import io.transnfv.engine.ingress.ExpiryTicker;
import io.transnfv.engine.ingress.PacketClock;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.thread.FailurePoint;
import io.transnfv.engine.thread.IdleSettings;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.StateDump;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The serial oracle: one thread, one packet at a time in arrival order, each packet through
 * every VNF of its path before the next packet enters, each transaction applied at once by
 * {@link SerialApplier}. Its per-packet records and final state define chain output
 * equivalence; every other executor is judged against it.
 *
 * <p>Faults and stops behave as in the engine, packet by packet (see {@code docs/reliability.md}):
 * VNF code that throws drops its packet as {@code <vnf>:vnf-error} and the run goes on; the
 * error bound and a stop request end the input after the current packet. The loop runs on its
 * own thread, {@code transnfv-serial}, while the caller waits: a packet past the batch deadline
 * or a thread that dies fails the run at once instead of hanging the caller.
 */
public final class SerialChainExecutor implements ChainExecutor
{
    private static final VarHandle PROGRESS;

    static
    {
        try
        {
            PROGRESS = MethodHandles.lookup().findVarHandle(SerialChainExecutor.class, "progress", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ChainRuntime runtime;
    private final MapStateStore state;
    private final RunStats stats;
    private final TransactionLog log = new TransactionLog(1, 64);
    private final SerialApplier applier = new SerialApplier();
    private final ActionRecorder actions = new ActionRecorder();
    private final PacketRecord record = new PacketRecord();
    private final PacketFlyweight packet = new PacketFlyweight();
    private final PacketClock clock = new PacketClock();
    private final ExpiryTicker ticker;
    private final RunControl control = new RunControl();
    private final FaultLog faults;
    private final FaultSettings faultSettings;
    private final ErrorBound errorBound;
    private final FailurePoint failurePoint = new FailurePoint("serial");
    private volatile Throwable failure;
    private volatile boolean done;
    // where the loop is, for the watchdog: packets started (odd while one is in the chain), VNF, callback
    private volatile long progress;
    private int currentNode = -1;
    private FaultLog.Callback currentCallback;
    private long currentSequence;

    /** @param chain the chain to run; the executor builds its own runtime and state. */
    public SerialChainExecutor(final ChainSpec chain)
    {
        this.runtime = new ChainRuntime(chain);
        this.state = new MapStateStore(runtime.catalog());
        this.stats = new RunStats(runtime);
        this.ticker = new ExpiryTicker(runtime.expiryIntervalNs());
        this.faultSettings = chain.settings().faults();
        this.errorBound = new ErrorBound(faultSettings);
        this.faults = new FaultLog(BatchedChainExecutor.vnfNames(runtime));
        applier.faultListener((l, t, thrown) -> faults.record(currentNode, FaultLog.Callback.STATE_FUNCTION, l.sequence(t), thrown));
    }

    @Override
    public RunStats run(final PacketSource source, final PacketListener listener) throws IOException
    {
        final Thread caller = Thread.currentThread();
        final Thread loop = new Thread(() ->
        {
            try
            {
                loop(source, listener);
            }
            catch (final Throwable t)
            {
                failure = t;
            }
            finally
            {
                done = true;
                LockSupport.unpark(caller);
            }
        }, "transnfv-serial");
        loop.setDaemon(true);
        loop.setUncaughtExceptionHandler((t, e) ->
        {
            failure = e;
            LockSupport.unpark(caller);
        });
        try (Watchdog ignored = faultSettings.batchDeadlineNs() > 0
            ? Watchdog.start("transnfv-watchdog", faultSettings.batchDeadlineNs(), new Watched(caller)) : null)
        {
            loop.start();
            while (!done && failure == null)
            {
                LockSupport.parkNanos(this, 100_000_000L);
            }
        }
        final Throwable t = failure;
        if (t == null)
        {
            return stats;
        }
        if (t instanceof IOException io)
        {
            throw io;
        }
        if (t instanceof RunFailedException failed)
        {
            throw failed;
        }
        throw new RunFailedException("the serial executor stopped: " + t + "; fix: this is a bug in the engine or in a VNF;"
            + " report it with the chain and the traffic", t);
    }

    private void loop(final PacketSource source, final PacketListener listener) throws IOException
    {
        final PacketBuffer buffer = new PacketBuffer();
        final int sampleEvery = EngineConfiguration.LATENCY_SAMPLE_EVERY;
        final IdleStrategy idle = IdleSettings.newIdleStrategy();
        while (!control.stopRequested())
        {
            // poll, not next: a live source with nothing to read must not keep a stop request waiting
            final int read = source.poll(buffer);
            if (read == PacketSource.END)
            {
                break;
            }
            if (read == PacketSource.NOTHING_YET)
            {
                idle.idle();
                continue;
            }
            idle.reset();
            failurePoint.check();
            // latency: from the hand-over (stamped by an ingress thread or a paced source) to here
            long ingressNs = buffer.ingressNs();
            if (ingressNs == 0 && buffer.sequence() % sampleEvery == 0)
            {
                ingressNs = System.nanoTime();
            }
            process(buffer);
            if (ingressNs != 0)
            {
                stats.recordLatencyNs(System.nanoTime() - ingressNs);
            }
            if (listener != null)
            {
                listener.onPacket(record, buffer, packet);
            }
        }
    }

    /**
     * Runs one packet through the chain: housekeeping if a tick is due, then each VNF of
     * its path. The record and the counters are updated; the buffer holds the rewritten frame.
     */
    void process(final PacketBuffer buffer)
    {
        PROGRESS.setRelease(this, progress + 1);
        final long timeNs = clock.onPacket(buffer.timestampNs());
        final long tick = ticker.due(timeNs);
        if (tick != ExpiryTicker.NONE)
        {
            for (int i = 0; i < runtime.size(); i++)
            {
                currentNode = i;
                currentCallback = FaultLog.Callback.EXPIRE;
                try
                {
                    runtime.instance(i).vnf().expire(tick, state);
                }
                catch (final Throwable t)
                {
                    faults.record(i, FaultLog.Callback.EXPIRE, buffer.sequence(), t);
                }
            }
        }
        currentSequence = buffer.sequence();
        record.reset(buffer.sequence(), timeNs);
        packet.wrap(buffer.memory(), buffer.offset(), buffer.length());
        if (!packet.isValid())
        {
            record.dropAtIngress(packet.malformedReason());
        }
        else
        {
            int node = 0;
            while (node != ChainRuntime.EGRESS)
            {
                final Vnf vnf = runtime.instance(node).vnf();
                currentNode = node;
                if (!runVnf(vnf, node, timeNs, buffer.sequence()))
                {
                    record.fault(node, runtime.instance(node).vnfErrorReason());
                    break;
                }
                record.visit(node, log.view(0), actions);
                node = actions.dropped() ? ChainRuntime.EGRESS : runtime.route(node, actions.output(), packet);
            }
        }
        currentCallback = null;
        if (errorBound.onPacket(timeNs, record.faulted()))
        {
            control.requestStop(RunControl.StopCause.ERROR_BOUND, errorBound.exceeded());
        }
        stats.onFinished(record, buffer.length());
        PROGRESS.setRelease(this, progress + 1);
    }

    /**
     * Runs one VNF on the packet: pre-processing, the transaction, post-processing.
     *
     * @return false if its code threw (recorded): the packet is to be dropped as a VNF error.
     */
    private boolean runVnf(final Vnf vnf, final int node, final long timeNs, final long sequence)
    {
        log.clear();
        log.begin(timeNs, sequence, packet);
        currentCallback = FaultLog.Callback.PRE_PROCESS;
        try
        {
            vnf.preProcess(packet, log);
            log.end();
        }
        catch (final Throwable t)
        {
            log.discardOpen();
            faults.record(node, FaultLog.Callback.PRE_PROCESS, sequence, t);
            return false;
        }
        currentCallback = FaultLog.Callback.STATE_FUNCTION;
        if (applier.apply(log, 0, state) == TransactionView.FAULT)
        {
            return false;
        }
        actions.reset();
        currentCallback = FaultLog.Callback.POST_PROCESS;
        try
        {
            vnf.postProcess(packet, log.view(0), actions);
        }
        catch (final Throwable t)
        {
            faults.record(node, FaultLog.Callback.POST_PROCESS, sequence, t);
            return false;
        }
        return true;
    }

    /** What the batch deadline's watchdog sees: the packet in the chain and where it is. */
    private final class Watched implements Watchdog.Run
    {
        private final Thread caller;

        Watched(final Thread caller)
        {
            this.caller = caller;
        }

        @Override
        public long progress()
        {
            return progress;
        }

        @Override
        public boolean inFlight()
        {
            return (progress & 1) == 1;
        }

        @Override
        public String whereStuck()
        {
            final FaultLog.Callback callback = currentCallback;
            final int node = currentNode;
            return callback == null || node < 0 ? "no VNF code is running; the serial executor itself is stuck"
                : "VNF '" + runtime.instance(node).name() + "' " + callback.label() + " on packet #" + currentSequence
                    + " (transnfv-serial)";
        }

        @Override
        public void stuck(final String message)
        {
            failure = new RunFailedException("stuck: " + message + "; fix: a VNF function must return (look for a loop that"
                + " never ends), or raise the batch deadline (settings.faults.batch_deadline, --batch-deadline)", null);
            LockSupport.unpark(caller);
        }
    }

    @Override
    public RunControl control()
    {
        return control;
    }

    @Override
    public FaultLog faults()
    {
        return faults;
    }

    @Override
    public RunStats stats()
    {
        return stats;
    }

    @Override
    public String dumpState()
    {
        return StateDump.toString(runtime.catalog(), state);
    }

    /** @return the oracle's committed state. */
    public MapStateStore state()
    {
        return state;
    }

    @Override
    public ChainRuntime runtime()
    {
        return runtime;
    }

    @Override
    public String describe()
    {
        return "serial";
    }

    @Override
    public void close()
    {
        log.clear();
    }
}
