package io.transnfv.engine.pipeline;

import io.transnfv.vnf.instance.KeyFormat;
import io.transnfv.vnf.instance.TableCatalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link Writer} that takes a candidate's state dump as it is written and compares it with
 * the oracle's dump read from {@code oracle}, keeping only the current lines, the first
 * difference and a count per table: two dumps of any size are compared in constant memory.
 * Used by one thread, the one writing the dump.
 *
 * <p>The first difference is the first line where the dumps differ. The count is of entries
 * (table and key) present in one dump only or with another value: both dumps list the tables
 * in id order and each table's keys ascending ({@code StateDump}), so the two are merged by
 * (table id, key), the keys parsed back from their text ({@link KeyFormat#parse}).
 */
final class StateDumpComparison extends Writer
{
    private static final String END = "(end of state)";

    private final BufferedReader oracle;
    private final StringBuilder line = new StringBuilder();
    private String difference;
    /** The oracle's dump read ahead for the merge, one entry at a time, or null at its end. */
    private final BufferedReader oracleEntries;
    private final Map<String, Integer> tableIds = new HashMap<>();
    private final TableCatalog catalog;
    private final Entry oracleEntry = new Entry();
    private final Entry candidateEntry = new Entry();
    private boolean oracleEntryRead;
    private final Map<String, Long> differingEntries = new LinkedHashMap<>();

    /**
     * @param oracle        the oracle's dump, positioned at its first line; the caller closes it.
     * @param oracleEntries a second reader of the same dump, for the count; the caller closes it.
     * @param catalog       the chain's tables, which name the dump's tables and their key kinds.
     */
    StateDumpComparison(final BufferedReader oracle, final BufferedReader oracleEntries, final TableCatalog catalog)
    {
        this.oracle = oracle;
        this.oracleEntries = oracleEntries;
        this.catalog = catalog;
        for (int t = 0; t < catalog.size(); t++)
        {
            tableIds.put(catalog.qualifiedName(t), t);
        }
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
        candidateEntry.parse(candidateLine);
        while (true)
        {
            if (!oracleEntryRead)
            {
                oracleEntry.parse(oracleEntries.readLine());
                oracleEntryRead = true;
            }
            final int order = oracleEntry.compareTo(candidateEntry);
            if (order < 0)
            {
                // in the oracle's state only
                countDiffering(oracleEntry);
                oracleEntryRead = false;
                continue;
            }
            if (order == 0)
            {
                if (oracleEntry.value != candidateEntry.value)
                {
                    countDiffering(candidateEntry);
                }
                oracleEntryRead = false;
            }
            else
            {
                // in the candidate's state only
                countDiffering(candidateEntry);
            }
            return;
        }
    }

    private void countDiffering(final Entry entry)
    {
        differingEntries.merge(entry.table < 0 ? entry.tableName : catalog.qualifiedName(entry.table), 1L, Long::sum);
    }

    /**
     * @return after {@link #finish}, per table (its qualified name, in table order), the entries present in
     *         one dump only or with another value; tables where none differ are absent.
     */
    Map<String, Long> differingEntries()
    {
        return differingEntries;
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
        // what is left of the oracle's dump is in its state only
        if (!oracleEntryRead)
        {
            oracleEntry.parse(oracleEntries.readLine());
            oracleEntryRead = true;
        }
        while (!oracleEntry.end)
        {
            countDiffering(oracleEntry);
            oracleEntry.parse(oracleEntries.readLine());
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

    /**
     * One dump line, {@code <instance>.<table> <key> <value>}, parsed for the merge; ordered by
     * table id, then key ascending, as {@code StateDump} writes them. The end of a dump orders
     * after every entry.
     */
    private final class Entry
    {
        boolean end;
        int table;
        String tableName;
        long key;
        long value;

        void parse(final String text)
        {
            end = text == null;
            if (end)
            {
                return;
            }
            final int first = text.indexOf(' ');
            final int last = text.lastIndexOf(' ');
            tableName = text.substring(0, first);
            final Integer id = tableIds.get(tableName);
            // a table the catalog does not name (never written by this project's dumps) orders first
            table = id == null ? -1 : id;
            final String keyText = text.substring(first + 1, last);
            key = table < 0 ? keyText.hashCode() : KeyFormat.parse(catalog.spec(table).keyKind(), keyText);
            value = Long.parseLong(text.substring(last + 1));
        }

        int compareTo(final Entry other)
        {
            if (end || other.end)
            {
                return Boolean.compare(end, other.end);
            }
            final int byTable = Integer.compare(table, other.table);
            return byTable != 0 ? byTable : Long.compare(key, other.key);
        }
    }
}
