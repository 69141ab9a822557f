package io.transnfv.scheduler;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heuristic against measurements, not against its own thresholds: for every workload of the
 * scheduling benchmark in {@code heuristic-decisions.csv} (measured by
 * {@code experiments/.../scheduling/DecisionFixture}; its header says how, when and under which
 * load), the figures the model reads go in, and the policy it picks must have measured within
 * {@link #WITHIN} of the best static policy on that workload. A rule that loses is named with
 * the rows it loses on.
 */
class HeuristicDecisionModelMeasuredTest
{
    /** The model's choice may cost this factor of the best measured policy's ns/op: the noise of a run on a shared machine (identical contestants measure 5-25 % apart in one JVM, docs/PERFORMANCE.md). */
    private static final double WITHIN = 1.15;
    private static final String FIXTURE = "heuristic-decisions.csv";
    private static final int FIRST_POLICY_COLUMN = 6;

    private final HeuristicDecisionModel model = new HeuristicDecisionModel();

    @Test
    void shouldPickAPolicyWithinFifteenPercentOfTheBestMeasuredOnEveryWorkload() throws IOException
    {
        final List<String[]> rows = new ArrayList<>();
        final String[] header = read(rows);
        final Map<String, Double> worstByRule = new TreeMap<>();
        final List<String> losses = new ArrayList<>();
        for (final String[] row : rows)
        {
            final int threads = Integer.parseInt(row[1]);
            final SchedulingPolicy chosen = model.choose(threads, Double.parseDouble(row[4]), Double.parseDouble(row[5]));
            final double[] nsPerOp = Arrays.stream(row, FIRST_POLICY_COLUMN, row.length).mapToDouble(Double::parseDouble).toArray();
            int best = 0;
            for (int c = 1; c < nsPerOp.length; c++)
            {
                best = nsPerOp[c] < nsPerOp[best] ? c : best;
            }
            final double ratio = nsPerOp[column(header, chosen.name())] / nsPerOp[best];
            final String rule = model.lastReason();
            worstByRule.merge(rule, ratio, Math::max);
            if (ratio > WITHIN)
            {
                losses.add(String.format(Locale.ROOT, "%s, %d executor(s): rule %s chose %s, %.2fx the best (%s)", row[0], threads, rule,
                    chosen.name(), ratio, header[FIRST_POLICY_COLUMN + best]));
            }
        }
        assertTrue(losses.isEmpty(), "the heuristic loses on measured workloads (worst ratio per rule: " + worstByRule + "):\n"
            + String.join("\n", losses));
    }

    @Test
    void shouldHaveMeasuredWorkloadsOnBothSidesOfTheAbortRule() throws IOException
    {
        // without rows on both sides, the test above would not judge the rule at all
        final List<String[]> rows = new ArrayList<>();
        read(rows);
        assertTrue(rows.stream().anyMatch(r -> Double.parseDouble(r[5]) > HeuristicDecisionModel.LAZY_MAX_ABORT_RATIO),
            "a workload that aborts often");
        assertTrue(rows.stream().anyMatch(r -> Double.parseDouble(r[5]) <= HeuristicDecisionModel.LAZY_MAX_ABORT_RATIO),
            "a workload that rarely aborts");
    }

    /** @return the header's columns; the data rows go to {@code rows}. */
    private static String[] read(final List<String[]> rows) throws IOException
    {
        try (InputStream in = HeuristicDecisionModelMeasuredTest.class.getResourceAsStream(FIXTURE))
        {
            assertNotNull(in, FIXTURE + " is on the test class path");
            final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String[] header = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine())
            {
                if (line.isBlank() || line.startsWith("#"))
                {
                    continue;
                }
                final String[] cells = line.split(",");
                if (header == null)
                {
                    header = cells;
                    assertEquals(FIRST_POLICY_COLUMN + SchedulingPolicy.STATIC_COUNT, header.length, "every static policy has a column");
                }
                else
                {
                    assertEquals(header.length, cells.length, "a complete row: " + line);
                    rows.add(cells);
                }
            }
            assertNotNull(header, "a header");
            assertTrue(!rows.isEmpty(), "measured rows");
            return header;
        }
    }

    private static int column(final String[] header, final String policy)
    {
        for (int c = FIRST_POLICY_COLUMN; c < header.length; c++)
        {
            if (header[c].equals(policy))
            {
                return c - FIRST_POLICY_COLUMN;
            }
        }
        throw new AssertionError("no column for " + policy);
    }
}
