package io.transnfv.experiments.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A line plot, one series per executor, written as PNG with XChart. Colours are the
 * Okabe–Ito colour-blind-safe palette without its yellow (too faint on white); tick labels
 * are plain numbers with thousands separators, also on log axes ({@code 10,000}, not
 * {@code 1E4}). A series given with a lower and an upper bound per point (the slowest and
 * fastest repetition) is drawn with that range as a thin dashed band in its colour.
 */
final class LinePlot
{
    /** Okabe & Ito, "Color Universal Design" (2008), minus yellow: blue, vermillion, green, purple, black, orange, sky. */
    static final Color[] PALETTE = {
        new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7), new Color(0x000000),
        new Color(0xE69F00), new Color(0x56B4E9)};
    /** Suffixes of the two series that draw a series' band; they stay out of the legend. */
    static final String BAND_LOW = " (slowest run)";
    static final String BAND_HIGH = " (fastest run)";

    private static final int WIDTH = 800;
    private static final int HEIGHT = 500;
    private static final String TICKS = "#,##0.###";

    private LinePlot()
    {
    }

    /**
     * @param file   the PNG to write.
     * @param series label to {x values, y values} or {x, y, lower bounds, upper bounds}.
     * @param logX   whether the x axis is logarithmic.
     * @param logY   whether the y axis is logarithmic.
     * @return {@code file}.
     */
    static Path draw(
        final Path file, final String title, final String xTitle, final String yTitle,
        final Map<String, double[][]> series, final boolean logX, final boolean logY) throws IOException
    {
        BitmapEncoder.saveBitmap(chart(title, xTitle, yTitle, series, logX, logY), file.toString(),
            BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    /** @return the chart {@link #draw} writes. */
    static XYChart chart(
        final String title, final String xTitle, final String yTitle, final Map<String, double[][]> series,
        final boolean logX, final boolean logY)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setXAxisDecimalPattern(TICKS);
        chart.getStyler().setYAxisDecimalPattern(TICKS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
        if (!logY)
        {
            chart.getStyler().setYAxisMin(0.0);
        }
        int index = 0;
        for (final Map.Entry<String, double[][]> e : series.entrySet())
        {
            final Color colour = PALETTE[index++ % PALETTE.length];
            final double[][] values = e.getValue();
            final XYSeries line = chart.addSeries(e.getKey(), values[0], positive(values[1], logY));
            line.setMarker(SeriesMarkers.CIRCLE).setMarkerColor(colour).setLineColor(colour);
            if (values.length == 4)
            {
                band(chart, e.getKey() + BAND_LOW, values[0], positive(values[2], logY), colour);
                band(chart, e.getKey() + BAND_HIGH, values[0], positive(values[3], logY), colour);
            }
        }
        return chart;
    }

    private static void band(final XYChart chart, final String name, final double[] x, final double[] y, final Color colour)
    {
        final XYSeries edge = chart.addSeries(name, x, y);
        edge.setMarker(SeriesMarkers.NONE).setLineColor(colour)
            .setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f))
            .setShowInLegend(false);
    }

    /** @return {@code y}, on a log axis with values below 0.01 raised to it (a log axis cannot show 0). */
    private static double[] positive(final double[] y, final boolean logY)
    {
        if (!logY)
        {
            return y;
        }
        final double[] raised = y.clone();
        for (int i = 0; i < raised.length; i++)
        {
            raised[i] = Math.max(raised[i], 0.01);
        }
        return raised;
    }
}
