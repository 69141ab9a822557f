package io.transnfv.cli;

import io.transnfv.chains.ChainValidationException;
import io.transnfv.engine.fault.RunFailedException;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.state.store.StateStoreException;
import io.transnfv.vnf.api.VnfConfigException;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Turns failures into a message on stderr and an exit status, without stack traces. */
final class Failures implements CommandLine.IExecutionExceptionHandler
{
    /** Exit status for input the user must fix (chain, parameters, files). */
    static final int BAD_INPUT = 2;
    /** Exit status for a run that failed ({@code verify}: {@link VerifyCommand#CANNOT_CHECK}). */
    static final int FAILED = 1;

    @Override
    public int handleExecutionException(
        final Exception e, final CommandLine cli, final CommandLine.ParseResult parseResult)
    {
        final String name = cli.getCommandName();
        if (e instanceof ChainValidationException || e instanceof VnfConfigException || e instanceof IllegalArgumentException)
        {
            cli.getErr().println(name + ": " + e.getMessage());
            return BAD_INPUT;
        }
        final int failed = cli.getCommand() instanceof VerifyCommand ? VerifyCommand.CANNOT_CHECK : FAILED;
        if (e instanceof SourceException || e instanceof RunFailedException || e instanceof StateStoreException)
        {
            cli.getErr().println(name + ": " + e.getMessage());
            return failed;
        }
        final Throwable cause = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : e;
        if (cause instanceof OutputFiles.WriteFailed output)
        {
            cli.getErr().println(name + ": " + output.getMessage());
            return failed;
        }
        if (e instanceof IOException || e instanceof UncheckedIOException)
        {
            cli.getErr().println(name + ": " + FileProblems.describe(e, "read or write"));
            return failed;
        }
        cli.getErr().println(name + ": internal error: " + e);
        e.printStackTrace(cli.getErr());
        return FAILED;
    }
}
