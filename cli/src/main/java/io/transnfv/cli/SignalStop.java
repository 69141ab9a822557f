package io.transnfv.cli;

import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.control.RunControl.StopCause;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.PrintStream;

/**
 * Graceful stop on SIGINT and SIGTERM while a run is in progress (see {@code docs/reliability.md}).
 * The first signal asks the run to stop reading ({@link RunControl}): the batch in flight is
 * finished, every output flushed and closed, the summary, the report and the state written, and
 * the command exits with 130 (SIGINT) or 143 (SIGTERM). A second signal stops the process at
 * once with the same status. Installed for the run only; the JVM's own handlers are put back on
 * {@link #close()}.
 *
 * <p>Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}): a shutdown hook cannot do this,
 * since the JVM is already exiting when it runs and ignores a second signal.
 */
final class SignalStop implements AutoCloseable
{
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final RunControl control;
    private final PrintStream err;
    private final Runnable beforeHalt;
    private final String whatHappens;
    private final SignalHandler[] previous = new SignalHandler[SIGNALS.length];
    private volatile boolean signalled;

    private SignalStop(final RunControl control, final PrintStream err, final Runnable beforeHalt, final String whatHappens)
    {
        this.control = control;
        this.err = err;
        this.beforeHalt = beforeHalt;
        this.whatHappens = whatHappens;
    }

    /**
     * Installs the handlers for a run.
     *
     * @param control    the run's stop request.
     * @param err        where the user is told what happens.
     * @param beforeHalt run by a second signal before the process stops at once: removes the
     *                   outputs' temporary files, so nothing partial is left behind.
     * @return the installation; close it when the run's outputs are written.
     */
    static SignalStop install(final RunControl control, final PrintStream err, final Runnable beforeHalt)
    {
        return install(control, err, beforeHalt, "finishing the batch in flight and writing every output");
    }

    /**
     * Installs the handlers for a run whose graceful stop is not the engine's own (a Flink job
     * stopped with a savepoint): the first signal only asks {@code control}, which the run polls.
     *
     * @param whatHappens what the first signal does, told to the user.
     */
    static SignalStop install(final RunControl control, final PrintStream err, final Runnable beforeHalt, final String whatHappens)
    {
        final SignalStop stop = new SignalStop(control, err, beforeHalt, whatHappens);
        for (int i = 0; i < SIGNALS.length; i++)
        {
            final String name = SIGNALS[i];
            try
            {
                stop.previous[i] = Signal.handle(new Signal(name), signal -> stop.onSignal(name));
            }
            catch (final IllegalArgumentException e)
            {
                // the JVM keeps this signal for itself (e.g. -Xrs): its default then applies
                stop.previous[i] = null;
            }
        }
        return stop;
    }

    private void onSignal(final String name)
    {
        final StopCause cause = "INT".equals(name) ? StopCause.INTERRUPT : StopCause.TERMINATE;
        if (signalled)
        {
            err.println("transnfv: SIG" + name + " again: stopping now; no output is written");
            err.flush();
            try
            {
                beforeHalt.run();
            }
            finally
            {
                Runtime.getRuntime().halt(cause.exitStatus());
            }
        }
        signalled = true;
        if (control.requestStop(cause, "stopped by SIG" + name + " before the end of the traffic"))
        {
            err.println("transnfv: SIG" + name + ": " + whatHappens + "; send it again to stop at once");
            err.flush();
        }
    }

    /** @return the exit status for the run's end: 0, or the stop cause's (130, 143, 1 for the error bound). */
    int exitStatus()
    {
        return control.stopCause().exitStatus();
    }

    @Override
    public void close()
    {
        for (int i = 0; i < SIGNALS.length; i++)
        {
            if (previous[i] != null)
            {
                Signal.handle(new Signal(SIGNALS[i]), previous[i]);
            }
        }
    }
}
