package io.transnfv.experiments.report;

import io.transnfv.experiments.runner.EngineBreakdown;
import io.transnfv.experiments.runner.ExecutorKind;
import io.transnfv.experiments.runner.Measurement;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The paper's Fig. 3c for the engine: where its workers' time went per packet, stacked by
 * category (ingress, pre-process, build, bind, seal, execute, ..., idle), one bar per
 * new-connection ratio.
 */
final class BreakdownPlot
{
    /**
     * One colour per category, in {@link EngineBreakdown#CATEGORIES} order: Okabe–Ito without its
     * yellow, then Paul Tol's indigo, wine and sand, and a light grey for idle time; every one
     * readable on white.
     */
    static final Color[] CATEGORY_COLORS = {
        new Color(0x0072B2), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x009E73), new Color(0x332288),
        new Color(0xD55E00), new Color(0xCC79A7), new Color(0x000000), new Color(0x999999), new Color(0x882255),
        new Color(0xDDCC77), new Color(0xBBBBBB)};

    private BreakdownPlot()
    {
    }

    /** @return {@code file}, a PNG of the engine's breakdown in {@code rows}. */
    static Path draw(final Path file, final String title, final List<Measurement> rows) throws IOException
    {
        final List<String> ratios = new ArrayList<>();
        final List<double[]> values = new ArrayList<>();
        for (final Measurement m : rows)
        {
            if (m.point().executor() == ExecutorKind.TRANSNFV)
            {
                ratios.add(String.format(Locale.ROOT, "%.0f %%", m.point().newConnRatio() * 100));
                values.add(m.breakdown().present() ? m.breakdown().values() : new double[EngineBreakdown.CATEGORIES.length]);
            }
        }
        final CategoryChart chart = new CategoryChartBuilder().width(800).height(500).title(title)
            .xAxisTitle("new connections").yAxisTitle("worker ns per packet").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setStacked(true);
        chart.getStyler().setSeriesColors(CATEGORY_COLORS);
        chart.getStyler().setYAxisMin(0.0);
        for (int c = 0; c < EngineBreakdown.CATEGORIES.length; c++)
        {
            final List<Double> series = new ArrayList<>();
            for (final double[] v : values)
            {
                series.add(Double.isNaN(v[c]) ? 0.0 : v[c]);
            }
            chart.addSeries(EngineBreakdown.CATEGORIES[c], ratios, series);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
