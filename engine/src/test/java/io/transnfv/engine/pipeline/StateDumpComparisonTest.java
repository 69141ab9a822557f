package io.transnfv.engine.pipeline;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class StateDumpComparisonTest
{
    private static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("a", new TableSpec("t", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "first table"));
        catalog.add("a", new TableSpec("h", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "second table"));
        return catalog;
    }

    private static StateDumpComparison comparison(final String oracle)
    {
        return new StateDumpComparison(new BufferedReader(new StringReader(oracle)),
            new BufferedReader(new StringReader(oracle)), catalog());
    }

    private static String compare(final String oracle, final String... candidateWrites) throws IOException
    {
        final StateDumpComparison comparison = comparison(oracle);
        for (final String write : candidateWrites)
        {
            comparison.write(write);
        }
        return comparison.finish();
    }

    private static Map<String, Long> count(final String oracle, final String candidate) throws IOException
    {
        final StateDumpComparison comparison = comparison(oracle);
        comparison.write(candidate);
        comparison.finish();
        return comparison.differingEntries();
    }

    @Test
    void shouldFindNoDifferenceInEqualDumpsWrittenInAnyPieces() throws IOException
    {
        assertNull(compare("a.t 1 2\na.t 3 4\n", "a.t 1", " 2\na", ".t 3 4\n"));
        assertNull(compare("", ""));
        assertEquals(Map.of(), count("a.t 1 2\na.t 3 4\na.h 10.0.0.1 5\n", "a.t 1 2\na.t 3 4\na.h 10.0.0.1 5\n"));
    }

    @Test
    void shouldReportTheFirstDifferingLineOnly() throws IOException
    {
        assertEquals("oracle: a.t 3 4 / candidate: a.t 3 5",
            compare("a.t 1 2\na.t 3 4\na.t 5 6\n", "a.t 1 2\na.t 3 5\na.t 5 7\n"));
    }

    @Test
    void shouldReportAMissingOrAnExtraEntryAsTheEndOfState() throws IOException
    {
        assertEquals("oracle: a.t 3 4 / candidate: (end of state)", compare("a.t 1 2\na.t 3 4\n", "a.t 1 2\n"));
        assertEquals("oracle: (end of state) / candidate: a.t 3 4", compare("a.t 1 2\n", "a.t 1 2\na.t 3 4\n"));
        assertEquals("oracle: (end of state) / candidate: a.t 3 4", compare("a.t 1 2\n", "a.t 1 2\na.t 3 4"));
    }

    @Test
    void shouldCountEachDifferingEntryOnceByTableAndKeyNotEachShiftedLine() throws IOException
    {
        // a key missing early shifts every later line; only the entries that differ count
        assertEquals(Map.of("a.t", 1L), count("a.t 1 2\na.t 3 4\na.t 5 6\na.t 7 8\n", "a.t 1 2\na.t 5 6\na.t 7 8\n"));
        assertEquals(Map.of("a.t", 1L), count("a.t 1 2\na.t 5 6\n", "a.t 1 2\na.t 3 4\na.t 5 6\n"));
        // another value, a key only in the candidate, keys only in the oracle at the end; per table
        assertEquals(Map.of("a.t", 2L, "a.h", 2L), count(
            "a.t -4 1\na.t 1 2\na.h 10.0.0.1 5\na.h 10.0.0.9 6\na.h 10.0.1.0 7\n",
            "a.t -4 1\na.t 1 3\na.t 2 1\na.h 10.0.0.1 5\n"));
        // keys compare as numbers, not as text: 10 comes after 9
        assertEquals(Map.of(), count("a.t 9 1\na.t 10 1\n", "a.t 9 1\na.t 10 1\n"));
        assertEquals(Map.of("a.t", 2L), count("a.t 9 1\na.t 10 1\n", "a.t 9 1\na.t 11 1\n"));
        assertEquals(Map.of("a.h", 1L), count("", "a.h 10.0.0.1 5\n"));
    }
}
