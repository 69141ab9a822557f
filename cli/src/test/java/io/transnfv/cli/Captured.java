package io.transnfv.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One run of the {@code transnfv} command inside the test's JVM, with what it printed.
 *
 * @param status the exit status.
 * @param out    what it printed on stdout.
 * @param err    what it printed on stderr.
 */
record Captured(int status, String out, String err)
{
    /** @return the outcome of running {@code transnfv args...}; not thread-safe (swaps System.out and err). */
    static Captured run(final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final int status = Transnfv.execute(args);
            return new Captured(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
