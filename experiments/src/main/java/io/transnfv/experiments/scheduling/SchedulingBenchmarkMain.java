package io.transnfv.experiments.scheduling;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The command line of {@link SchedulingBenchmark}: {@code key=value} arguments in (see
 * {@link SchedulingBenchmark.Settings}), progress on stderr, the Markdown report on stdout.
 */
public final class SchedulingBenchmarkMain
{
    private SchedulingBenchmarkMain()
    {
    }

    /** @param args {@code key=value} settings, see {@link SchedulingBenchmark}. */
    public static void main(final String[] args) throws IOException
    {
        final SchedulingBenchmark.Settings settings;
        try
        {
            settings = SchedulingBenchmark.Settings.parse(keyValues(args));
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.out.print(SchedulingBenchmark.run(settings, System.err::println));
    }

    /**
     * @param args {@code key=value} arguments, as the scheduling tools take them.
     * @return them in order, by key.
     * @throws IllegalArgumentException naming an argument that is not {@code key=value}.
     */
    static Map<String, String> keyValues(final String[] args)
    {
        final Map<String, String> opts = new LinkedHashMap<>();
        for (final String a : args)
        {
            final int eq = a.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException("expected key=value, got '" + a + "'");
            }
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        return opts;
    }
}
