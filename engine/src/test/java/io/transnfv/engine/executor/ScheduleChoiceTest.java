package io.transnfv.engine.executor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleChoiceTest
{
    /** Runs {@code batches} batches where the graph costs {@code graphNs} and serial {@code serialNs} per unit. */
    private static int graphBatches(final ScheduleChoice choice, final int batches, final long graphNs, final long serialNs)
    {
        int graph = 0;
        for (int b = 0; b < batches; b++)
        {
            final boolean g = choice.graph();
            graph += g ? 1 : 0;
            choice.observe((g ? graphNs : serialNs) * 1_000, 1_000);
        }
        return graph;
    }

    @Test
    void shouldTryBothSchedulesWhileWarmingUp()
    {
        final ScheduleChoice choice = new ScheduleChoice(1.25);
        assertEquals(ScheduleChoice.WARM_UP / 2, graphBatches(choice, ScheduleChoice.WARM_UP, 10, 10));
        assertEquals(10.0, choice.graphNsPerWork(), 1e-9);
        assertEquals(10.0, choice.serialNsPerWork(), 1e-9);
    }

    @Test
    void shouldRunTheGraphWhenItIsClearlyFasterAndProbeSerialNowAndThen()
    {
        final ScheduleChoice choice = new ScheduleChoice(1.25);
        graphBatches(choice, ScheduleChoice.WARM_UP, 50, 100);
        final int batches = ScheduleChoice.REPROBE_EVERY * 4;
        final int graph = graphBatches(choice, batches, 50, 100);
        assertEquals(batches - 4, graph, "one serial probe every " + ScheduleChoice.REPROBE_EVERY + " batches");
    }

    @Test
    void shouldRunSeriallyWhenTheGraphIsNotFasterByTheMargin()
    {
        final ScheduleChoice choice = new ScheduleChoice(1.25);
        graphBatches(choice, ScheduleChoice.WARM_UP, 90, 100);
        assertEquals(4, graphBatches(choice, ScheduleChoice.REPROBE_EVERY * 4, 90, 100),
            "10% faster is not 25% faster: only the probes run the graph");
    }

    @Test
    void shouldFollowAChangeInTheWorkload()
    {
        final ScheduleChoice choice = new ScheduleChoice(1.0);
        graphBatches(choice, ScheduleChoice.WARM_UP, 50, 100);
        // the graph becomes slow (e.g. every transaction now hits one key): the probes keep the
        // serial average fresh, the graph's own samples drag its average up, and serial wins
        graphBatches(choice, ScheduleChoice.REPROBE_EVERY * 2, 300, 100);
        assertEquals(1, graphBatches(choice, ScheduleChoice.REPROBE_EVERY, 300, 100), "only the probe");
        assertTrue(choice.graphNsPerWork() > choice.serialNsPerWork());
    }

    @Test
    void shouldIgnoreEmptyBatchesAndRejectAMarginBelowOne()
    {
        final ScheduleChoice choice = new ScheduleChoice(1.0);
        choice.graph();
        choice.observe(1_000, 0);
        assertTrue(Double.isNaN(choice.graphNsPerWork()));
        assertTrue(Double.isNaN(choice.serialNsPerWork()));
        assertThrows(IllegalArgumentException.class, () -> new ScheduleChoice(0.9));
    }
}
