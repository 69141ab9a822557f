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
 * The paper's Fig. 3c for the engine: its state access time per operation, stacked by category
 * (useful, sync, lock, construct, explore, others), one bar per new-connection ratio.
 */
final class BreakdownPlot
{
    /** One colour per category, in {@link EngineBreakdown#CATEGORIES} order. */
    private static final Color[] CATEGORY_COLORS = {
        new Color(0x1F77B4), new Color(0xFF7F0E), new Color(0x9467BD),
        new Color(0x2CA02C), new Color(0xD62728), new Color(0x7F7F7F)};

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
            .xAxisTitle("new connections").yAxisTitle("ns per operation").build();
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
