package io.transnfv.experiments.report;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.awt.Color;
import java.text.DecimalFormat;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The experiment plots: readable ticks, colour-blind-safe series, the repetitions' range drawn. */
class LinePlotTest
{
    static
    {
        System.setProperty("java.awt.headless", "true");
    }

    private static final Color YELLOW = new Color(0xF0E442);

    private static Map<String, double[][]> fiveExecutorsWithTheirRange()
    {
        final Map<String, double[][]> series = new LinkedHashMap<>();
        for (final String executor : new String[] {"transnfv", "chc-style", "no-lock", "partitioned", "serial"})
        {
            series.put(executor, new double[][] {{64, 1_024, 16_384}, {2, 3, 4}, {1.5, 2.5, 3.5}, {2.5, 3.5, 4.5}});
        }
        return series;
    }

    @Test
    void shouldGiveEveryExecutorItsOwnColourBlindSafeColourAndNoYellow()
    {
        final XYChart chart = LinePlot.chart("t", "x", "y", fiveExecutorsWithTheirRange(), true, false);
        final Set<Color> colours = new HashSet<>();
        for (final XYSeries s : chart.getSeriesMap().values())
        {
            if (s.isShowInLegend())
            {
                assertTrue(colours.add(s.getLineColor()), "a colour of its own: " + s.getName());
                assertFalse(s.getLineColor().equals(YELLOW), s.getName());
                assertTrue(java.util.List.of(LinePlot.PALETTE).contains(s.getLineColor()), s.getName());
            }
        }
        assertEquals(5, colours.size());
    }

    @Test
    void shouldDrawTheSlowestAndFastestRepetitionAsABandInTheSeriesColourOutOfTheLegend()
    {
        final XYChart chart = LinePlot.chart("t", "x", "y", fiveExecutorsWithTheirRange(), false, false);
        final XYSeries median = chart.getSeriesMap().get("no-lock");
        final XYSeries low = chart.getSeriesMap().get("no-lock" + LinePlot.BAND_LOW);
        final XYSeries high = chart.getSeriesMap().get("no-lock" + LinePlot.BAND_HIGH);
        assertArrayEquals(new double[] {1.5, 2.5, 3.5}, low.getYData());
        assertArrayEquals(new double[] {2.5, 3.5, 4.5}, high.getYData());
        assertFalse(low.isShowInLegend() || high.isShowInLegend());
        assertEquals(median.getLineColor(), low.getLineColor());
        assertEquals(median.getLineColor(), high.getLineColor());
    }

    @Test
    void shouldLabelLogAxisTicksAsPlainNumbersNotScientificNotation()
    {
        final XYChart chart = LinePlot.chart("t", "x", "y", fiveExecutorsWithTheirRange(), true, true);
        final DecimalFormat x = new DecimalFormat(chart.getStyler().getXAxisDecimalPattern());
        final DecimalFormat y = new DecimalFormat(chart.getStyler().getYAxisDecimalPattern());
        assertEquals("10,000", x.format(1e4));
        assertEquals("0.01", y.format(1e-2));
        assertEquals("1,000,000", y.format(1e6));
    }
}
