package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * The stable, diffable text form of a chain's committed state, on which final-state
 * equivalence is judged: one line per entry, {@code <instance>.<table> <key> <value>},
 * tables in id order and keys ascending. Works on any store (single- or multi-version).
 */
public final class StateDump
{
    private StateDump()
    {
    }

    /** Writes every entry of every table of {@code catalog} held by {@code state}. */
    public static void write(final TableCatalog catalog, final StateMaintenance state, final Appendable out)
    {
        for (int t = 0; t < catalog.size(); t++)
        {
            final String name = catalog.qualifiedName(t);
            final TableSpec spec = catalog.spec(t);
            state.forEach(t, (key, value) ->
            {
                try
                {
                    out.append(name).append(' ').append(KeyFormat.format(spec.keyKind(), key)).append(' ')
                        .append(Long.toString(value)).append('\n');
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /**
     * Streams every entry of every table of {@code catalog} held by {@code state} to {@code out}, line
     * by line, so a dump of any size needs no more memory than {@code out}'s buffer.
     *
     * @throws IOException if {@code out} fails.
     */
    public static void write(final TableCatalog catalog, final StateMaintenance state, final Writer out)
        throws IOException
    {
        try
        {
            write(catalog, state, (Appendable)out);
        }
        catch (final UncheckedIOException e)
        {
            throw e.getCause();
        }
    }

    /** @return {@link #write} into a string; the whole dump in memory, for small state and tests. */
    public static String toString(final TableCatalog catalog, final StateMaintenance state)
    {
        final StringBuilder out = new StringBuilder();
        write(catalog, state, out);
        return out.toString();
    }
}
