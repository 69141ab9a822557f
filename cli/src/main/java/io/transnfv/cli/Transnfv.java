package io.transnfv.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The {@code transnfv} command's entry point. */
@Command(
    name = "transnfv",
    mixinStandardHelpOptions = true,
    versionProvider = Transnfv.Version.class,
    description = "Transactional state engine for stateful network function chains.",
    subcommands = {RunCommand.class, VerifyCommand.class, ValidateCommand.class, VnfsCommand.class, ExperimentCommand.class,
        DoctorCommand.class, CommandLine.HelpCommand.class})
public final class Transnfv implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Runs the command line and exits with its status: 0 success, 1 failure, 2 bad input, 130 or
     * 143 for a run stopped by SIGINT or SIGTERM (its outputs complete); {@code verify}: 1 not
     * equivalent, 3 the check could not be completed.
     *
     * @param args the arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(execute(args));
    }

    /** @return the exit status of running {@code args} (for tests: does not exit). */
    public static int execute(final String... args)
    {
        final CommandLine cli = new CommandLine(new Transnfv());
        cli.setExecutionExceptionHandler(new Failures());
        try
        {
            return cli.execute(args);
        }
        catch (final Error e)
        {
            // picocli hands only Exceptions to the handler: an Error must still end in a message and a status
            System.err.println("transnfv: internal error: " + e);
            e.printStackTrace(System.err);
            return Failures.FAILED;
        }
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /** @return the product version the build wrote into {@code transnfv.properties}, e.g. {@code 0.1.0}. */
    static String version()
    {
        try (InputStream in = Transnfv.class.getResourceAsStream("transnfv.properties"))
        {
            final Properties properties = new Properties();
            if (in != null)
            {
                properties.load(in);
            }
            return properties.getProperty("version", "development build");
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot read the version", e);
        }
    }

    /** The version, from {@link #version()}. */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            return new String[] {"transnfv " + version()};
        }
    }
}
