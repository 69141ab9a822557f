package io.transnfv.experiments.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** A line plot, one series per executor, written as PNG with XChart. */
final class LinePlot
{
    private static final int WIDTH = 800;
    private static final int HEIGHT = 500;

    private LinePlot()
    {
    }

    /**
     * @param file   the PNG to write.
     * @param series label to {x values, y values}.
     * @param logX   whether the x axis is logarithmic.
     * @param logY   whether the y axis is logarithmic.
     * @return {@code file}.
     */
    static Path draw(
        final Path file, final String title, final String xTitle, final String yTitle,
        final Map<String, double[][]> series, final boolean logX, final boolean logY) throws IOException
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
        if (!logY)
        {
            chart.getStyler().setYAxisMin(0.0);
        }
        for (final Map.Entry<String, double[][]> e : series.entrySet())
        {
            final double[] y = e.getValue()[1].clone();
            if (logY)
            {
                for (int i = 0; i < y.length; i++)
                {
                    y[i] = Math.max(y[i], 0.01);
                }
            }
            chart.addSeries(e.getKey(), e.getValue()[0], y).setMarker(SeriesMarkers.CIRCLE);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
