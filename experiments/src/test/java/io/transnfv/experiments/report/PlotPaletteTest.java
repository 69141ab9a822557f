package io.transnfv.experiments.report;

import org.junit.jupiter.api.Test;

import java.awt.Color;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlotPaletteTest
{
    /** Contrast against the white background below which a line or a bar is hard to see (yellow is 1.27). */
    private static final double MIN_CONTRAST_ON_WHITE = 1.5;

    @Test
    void shouldDrawEveryLineSeriesInAColourReadableOnWhite()
    {
        assertReadableAndDistinct(LinePlot.PALETTE);
    }

    @Test
    void shouldDrawEveryBreakdownCategoryInAColourReadableOnWhite()
    {
        assertReadableAndDistinct(BreakdownPlot.CATEGORY_COLORS);
    }

    private static void assertReadableAndDistinct(final Color[] palette)
    {
        final Set<Integer> seen = new HashSet<>();
        for (final Color colour : palette)
        {
            final double contrast = 1.05 / (relativeLuminance(colour) + 0.05);
            assertTrue(contrast >= MIN_CONTRAST_ON_WHITE,
                String.format("#%06X has contrast %.2f on white", colour.getRGB() & 0xFFFFFF, contrast));
            seen.add(colour.getRGB());
        }
        assertEquals(palette.length, seen.size(), "two series share a colour");
    }

    /** WCAG 2 relative luminance of an sRGB colour. */
    private static double relativeLuminance(final Color colour)
    {
        return 0.2126 * linear(colour.getRed()) + 0.7152 * linear(colour.getGreen()) + 0.0722 * linear(colour.getBlue());
    }

    private static double linear(final int channel)
    {
        final double c = channel / 255.0;
        return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }
}
