package io.transnfv.engine.thread;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WidthChoiceTest
{
    private static final int REPROBE = 64;

    /** Runs {@code batches} batches where the graph costs {@code graphNs} and serial {@code serialNs} per unit. */
    private static int graphBatches(final WidthChoice choice, final int batches, final long graphNs, final long serialNs)
    {
        int graph = 0;
        for (int b = 0; b < batches; b++)
        {
            final boolean g = choice.wide();
            graph += g ? 1 : 0;
            choice.observe((g ? graphNs : serialNs) * 1_000, 1_000);
        }
        return graph;
    }

    @Test
    void shouldTryBothSchedulesWhileWarmingUp()
    {
        final WidthChoice choice = new WidthChoice(1.25, REPROBE);
        assertEquals(WidthChoice.WARM_UP / 2, graphBatches(choice, WidthChoice.WARM_UP, 10, 10));
        assertEquals(10.0, choice.wideNsPerWork(), 1e-9);
        assertEquals(10.0, choice.narrowNsPerWork(), 1e-9);
    }

    @Test
    void shouldRunTheGraphWhenItIsClearlyFasterAndProbeSerialNowAndThen()
    {
        final WidthChoice choice = new WidthChoice(1.25, REPROBE);
        graphBatches(choice, WidthChoice.WARM_UP, 50, 100);
        final int batches = REPROBE * 4;
        final int graph = graphBatches(choice, batches, 50, 100);
        assertEquals(batches - 4, graph, "one serial probe every " + REPROBE + " batches");
    }

    @Test
    void shouldRunSeriallyWhenTheGraphIsNotFasterByTheMargin()
    {
        final WidthChoice choice = new WidthChoice(1.25, REPROBE);
        graphBatches(choice, WidthChoice.WARM_UP, 90, 100);
        assertEquals(4, graphBatches(choice, REPROBE * 4, 90, 100),
            "10% faster is not 25% faster: only the probes run the graph");
    }

    @Test
    void shouldFollowAChangeInTheWorkload()
    {
        final WidthChoice choice = new WidthChoice(1.0, REPROBE);
        graphBatches(choice, WidthChoice.WARM_UP, 50, 100);
        // the graph becomes slow (e.g. every transaction now hits one key): the probes keep the
        // serial average fresh, the graph's own samples drag its average up, and serial wins
        graphBatches(choice, REPROBE * 2, 300, 100);
        assertEquals(1, graphBatches(choice, REPROBE, 300, 100), "only the probe");
        assertTrue(choice.wideNsPerWork() > choice.narrowNsPerWork());
    }

    @Test
    void shouldIgnoreEmptyBatchesAndRejectAMarginBelowOne()
    {
        final WidthChoice choice = new WidthChoice(1.0, REPROBE);
        choice.wide();
        choice.observe(1_000, 0);
        assertTrue(Double.isNaN(choice.wideNsPerWork()));
        assertTrue(Double.isNaN(choice.narrowNsPerWork()));
        assertThrows(IllegalArgumentException.class, () -> new WidthChoice(0.9, REPROBE));
        assertThrows(IllegalArgumentException.class, () -> new WidthChoice(1.0, 1));
    }

    @Test
    void shouldNotLetOneOutlierMoveTheEstimate()
    {
        final WidthChoice choice = new WidthChoice(1.0, REPROBE);
        graphBatches(choice, WidthChoice.WARM_UP, 50, 100);
        assertTrue(choice.wide());
        choice.observe(100_000_000, 1_000);   // one wide step 2,000 times dearer: a GC pause
        assertEquals(50.0, choice.wideNsPerWork(), 1e-9);
        assertTrue(choice.wide(), "still the wide way");
    }
}
