package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.checkpoint.Checkpointer;
import io.transnfv.engine.control.CommandQueue;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SchedulerReport;
import io.transnfv.engine.report.SnapshotExchange;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.api.StateReader;

import java.io.IOException;
import java.io.Writer;
import java.util.Optional;

/**
 * Runs a chain over a packet source. Implementations own their chain runtime and state;
 * {@link #run} is called once, by one thread.
 */
public interface ChainExecutor extends AutoCloseable
{
    /**
     * Runs every packet of {@code source} through the chain.
     *
     * @param listener told about each finished packet in arrival order, or null.
     * @return the run's counters.
     * @throws IOException if the source fails, or the listener's output (thrown by the listener
     *                     as an {@link java.io.UncheckedIOException}).
     */
    RunStats run(PacketSource source, PacketListener listener) throws IOException;

    /** @return the stats of the run so far (for progress); valid once {@link #run} started. */
    RunStats stats();

    /**
     * @return this executor's stop request: any thread (a signal handler) may ask the run to stop
     *         reading; it then finishes what it read and {@link #run} returns normally.
     */
    RunControl control();

    /** @return what VNF code threw during the run (complete once {@link #run} returned). */
    FaultLog faults();

    /** @return the chain runtime (VNF instances, tables, routing) this executor runs. */
    ChainRuntime runtime();

    /**
     * @return the committed state, read directly (only where no transaction is in flight, or for
     *         figures that may be a batch old), or empty for an executor whose state cannot be read
     *         whole (the experiments' baselines).
     */
    default Optional<StateReader> committedState()
    {
        return Optional.empty();
    }

    /**
     * Runs the chain's state checkers on the final committed state and reports what they found
     * there and at the punctuations during the run ({@link ChainRuntime#finalCheck}); call once,
     * after {@link #run} has returned.
     *
     * @return what the checks found, or empty without a {@link #committedState()}.
     */
    default Optional<CheckerReport> finalCheck()
    {
        return committedState().map(runtime()::finalCheck);
    }

    /**
     * @return the committed entries of each table, in the catalogue's order, or empty without a
     *         {@link #committedState()}. Exact once {@link #run} has returned; while it runs, any
     *         thread may read it for progress, and gets figures read without synchronisation that
     *         may be a batch old.
     */
    default Optional<long[]> liveEntries()
    {
        return committedState().map(runtime()::liveEntries);
    }

    /** @return the committed state in the stable dump form ({@code StateDump}), whole in memory. */
    String dumpState();

    /**
     * Writes the committed state in the stable dump form to {@code out}. The executors of this
     * project stream it entry by entry (memory bounded by {@code out}'s buffer, whatever the
     * state's size); this default, for other executors, writes {@link #dumpState()}.
     *
     * @throws IOException if {@code out} fails.
     */
    default void writeState(final Writer out) throws IOException
    {
        out.write(dumpState());
    }

    /**
     * @return where readers off the data path (the HTTP control plane, a periodic stats line) get
     *         consistent copies of the counters while the run goes on, and its final figures once
     *         it has ended; empty for an executor that does not publish them.
     */
    default Optional<SnapshotExchange> snapshots()
    {
        return Optional.empty();
    }

    /**
     * @return where commands from outside the engine's threads (state lookups) wait for a point
     *         with no batch in flight; empty for an executor that takes none.
     */
    default Optional<CommandQueue> commands()
    {
        return Optional.empty();
    }

    /**
     * @return where changes of VNF parameters wait for a packet position with no batch in flight,
     *         and what took effect where; empty for an executor that takes none.
     */
    default Optional<ParamChanges> paramChanges()
    {
        return Optional.empty();
    }

    /** @return what the executor reports about how it ran (e.g. scheduling decisions); may be empty. */
    default Optional<SchedulerReport> executorSummary()
    {
        return Optional.empty();
    }

    /**
     * @return true if the executor reads its source on its own workers (then give it the source
     *         itself); false to have the source read on an ingress thread in front of it.
     */
    default boolean readsSourceItself()
    {
        return false;
    }

    /**
     * Takes checkpoints at batch boundaries with {@code checkpointer}, and resumes from the one it
     * loaded, if any; call before {@link #run}. Without a call no checkpoint work is done.
     *
     * @throws UnsupportedOperationException if this executor cannot take checkpoints.
     */
    default void checkpointWith(final Checkpointer checkpointer)
    {
        throw new UnsupportedOperationException("the " + describe() + " executor takes no checkpoints\n"
            + "fix: run with the tpg or serial executor to use --checkpoint-dir or --resume");
    }

    /**
     * @return the run's counters ({@code RunStats.counters()} order) exactly as of the last batch
     *         boundary; call only while no batch is in flight (between batches of a source that
     *         has nothing to read), e.g. to snapshot them with the state.
     */
    default long[] countersAtBoundary()
    {
        return stats().counters();
    }

    /**
     * @return IP fragments held aside waiting for their datagram's first fragment: while any is
     *         held, the packets read are not all in the state and the outputs, so no cut is
     *         consistent. 0 for executors that hold none.
     */
    default int heldFragments()
    {
        return 0;
    }

    /** @return a short description, e.g. {@code serial} or {@code tpg, 2 threads}. */
    String describe();

    /** Stops worker threads, if any. */
    @Override
    void close();
}
