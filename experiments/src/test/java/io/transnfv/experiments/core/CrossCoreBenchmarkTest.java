package io.transnfv.experiments.core;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Control;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The partitioned apply of the cross-core benchmark computes what the serial apply does: same state, same results. */
class CrossCoreBenchmarkTest
{
    @Test
    void shouldLeaveTheSerialStateAndResultsWhenTheBatchesAreSplitByKeyOverTwoThreads() throws Exception
    {
        final CrossCoreBenchmark.Batches batches = new CrossCoreBenchmark.Batches();
        batches.keys = 1_000;
        batches.generate();
        final CrossCoreBenchmark benchmark = new CrossCoreBenchmark();
        final CrossCoreBenchmark.Serial serial = new CrossCoreBenchmark.Serial();
        serial.reset(batches);
        final CrossCoreBenchmark.Halves halves = new CrossCoreBenchmark.Halves();
        halves.reset(batches);
        final Control control = new Control();
        final int rounds = 3 * CrossCoreBenchmark.BATCHES;
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread other = new Thread(() ->
        {
            try
            {
                for (int b = 0; b < rounds; b++)
                {
                    CrossCoreBenchmark.half(batches, halves, control, 1);
                }
            }
            catch (final Throwable e)
            {
                failed.set(e);
            }
        });
        other.start();
        int crossing = 0;
        for (int b = 0; b < rounds; b++)
        {
            benchmark.serial(batches, serial);
            CrossCoreBenchmark.half(batches, halves, control, 0);
        }
        other.join(60_000);
        assertNull(failed.get());
        for (long key = 1; key <= batches.keys; key++)
        {
            final int half = CrossCoreBenchmark.half(key);
            assertEquals(serial.state.get(key), halves.state[half].get(key), "key " + key);
            assertEquals(0, halves.state[1 - half].get(key), "key " + key + " only in its half");
        }
        final long[] first = batches.first[(rounds - 1) & (CrossCoreBenchmark.BATCHES - 1)];
        final long[] second = batches.second[(rounds - 1) & (CrossCoreBenchmark.BATCHES - 1)];
        for (int t = 0; t < CrossCoreBenchmark.TRANSACTIONS; t++)
        {
            assertEquals(serial.results[2 * t], halves.results[CrossCoreBenchmark.half(first[t])][2 * t]);
            assertEquals(serial.results[2 * t + 1], halves.results[CrossCoreBenchmark.half(second[t])][2 * t + 1]);
            crossing += CrossCoreBenchmark.half(first[t]) != CrossCoreBenchmark.half(second[t]) ? 1 : 0;
        }
        assertTrue(crossing > CrossCoreBenchmark.TRANSACTIONS / 3, "about half the transactions hand a result over: " + crossing);
        assertEquals(halves.written[0].get(), halves.read[1], "every value sent was read");
        assertEquals(halves.written[1].get(), halves.read[0]);
    }
}
