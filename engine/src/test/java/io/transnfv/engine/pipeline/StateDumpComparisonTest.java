package io.transnfv.engine.pipeline;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class StateDumpComparisonTest
{
    private static String compare(final String oracle, final String... candidateWrites) throws IOException
    {
        final StateDumpComparison comparison = new StateDumpComparison(new BufferedReader(new StringReader(oracle)));
        for (final String write : candidateWrites)
        {
            comparison.write(write);
        }
        return comparison.finish();
    }

    @Test
    void shouldFindNoDifferenceInEqualDumpsWrittenInAnyPieces() throws IOException
    {
        assertNull(compare("a.t 1 2\na.t 3 4\n", "a.t 1", " 2\na", ".t 3 4\n"));
        assertNull(compare("", ""));
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
}
