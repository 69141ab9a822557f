package io.transnfv.engine.pipeline;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;

/**
 * A {@link Writer} that takes a candidate's state dump as it is written and compares it, line
 * by line, with the oracle's dump read from {@code oracle}, keeping only the current line and
 * the first difference: two dumps of any size are compared in constant memory. Used by one
 * thread, the one writing the dump.
 */
final class StateDumpComparison extends Writer
{
    private static final String END = "(end of state)";

    private final BufferedReader oracle;
    private final StringBuilder line = new StringBuilder();
    private String difference;

    /** @param oracle the oracle's dump, positioned at its first line; the caller closes it. */
    StateDumpComparison(final BufferedReader oracle)
    {
        this.oracle = oracle;
    }

    @Override
    public void write(final char[] chars, final int offset, final int length) throws IOException
    {
        for (int i = offset; i < offset + length; i++)
        {
            final char c = chars[i];
            if (c == '\n')
            {
                endLine(line.toString());
                line.setLength(0);
            }
            else
            {
                line.append(c);
            }
        }
    }

    @Override
    public void write(final String text, final int offset, final int length) throws IOException
    {
        write(text.toCharArray(), offset, length);
    }

    private void endLine(final String candidateLine) throws IOException
    {
        final String oracleLine = oracle.readLine();
        if (difference == null && !candidateLine.equals(oracleLine))
        {
            difference = "oracle: " + (oracleLine == null ? END : oracleLine) + " / candidate: " + candidateLine;
        }
    }

    /**
     * Ends the candidate's dump.
     *
     * @return the first differing line as {@code oracle: ... / candidate: ...}, or null if the dumps are equal.
     * @throws IOException if the oracle's dump cannot be read.
     */
    String finish() throws IOException
    {
        if (line.length() > 0)
        {
            endLine(line.toString());
            line.setLength(0);
        }
        if (difference == null)
        {
            final String oracleLine = oracle.readLine();
            if (oracleLine != null)
            {
                difference = "oracle: " + oracleLine + " / candidate: " + END;
            }
        }
        return difference;
    }

    @Override
    public void flush()
    {
    }

    @Override
    public void close()
    {
    }
}
