package io.transnfv.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code transnfv} command's entry point. */
@Command(
    name = "transnfv",
    mixinStandardHelpOptions = true,
    versionProvider = Transnfv.Version.class,
    description = "Transactional state engine for stateful network function chains.",
    subcommands = {RunCommand.class, VerifyCommand.class, ValidateCommand.class, VnfsCommand.class, ExperimentCommand.class, CommandLine.HelpCommand.class})
public final class Transnfv implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Runs the command line and exits with its status: 0 success, 1 failure, 2 bad input.
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
        return cli.execute(args);
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /** The version, from the jar's manifest when packaged. */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String v = Transnfv.class.getPackage().getImplementationVersion();
            return new String[] {"transnfv " + (v == null ? "development build" : v)};
        }
    }
}
