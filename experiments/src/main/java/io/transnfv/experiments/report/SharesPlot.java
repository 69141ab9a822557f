package io.transnfv.experiments.report;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where wall time goes, as grouped bars per new-connection ratio: the engine's share of wall
 * time in the state access phase, and each parallel baseline's share waiting for its workers at
 * batch ends (sync).
 */
final class SharesPlot
{
    private SharesPlot()
    {
    }

    /** @return {@code file}, a PNG of {@code rows}' shares. */
    static Path draw(final Path file, final String title, final List<Measurement> rows) throws IOException
    {
        final List<String> ratios = new ArrayList<>();
        final Map<String, Map<String, Double>> series = new LinkedHashMap<>();
        for (final Measurement m : rows)
        {
            final String ratio = String.format(Locale.ROOT, "%.0f %%", m.point().newConnRatio() * 100);
            if (!ratios.contains(ratio))
            {
                ratios.add(ratio);
            }
            if (m.point().executor() == ExecutorKind.TRANSNFV)
            {
                series.computeIfAbsent("transnfv: state access", k -> new LinkedHashMap<>())
                    .put(ratio, m.stateAccessShare() * 100);
            }
            else if (!Double.isNaN(m.syncShare()))
            {
                series.computeIfAbsent(m.point().executor().label() + ": sync", k -> new LinkedHashMap<>())
                    .put(ratio, m.syncShare() * 100);
            }
        }
        final CategoryChart chart = new CategoryChartBuilder().width(800).height(500).title(title)
            .xAxisTitle("new connections").yAxisTitle("share of wall time (%)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setSeriesColors(LinePlot.PALETTE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        for (final Map.Entry<String, Map<String, Double>> e : series.entrySet())
        {
            final List<Double> values = new ArrayList<>();
            for (final String ratio : ratios)
            {
                final Double v = e.getValue().get(ratio);
                values.add(v == null || v.isNaN() ? 0.0 : v);
            }
            chart.addSeries(e.getKey(), ratios, values);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
