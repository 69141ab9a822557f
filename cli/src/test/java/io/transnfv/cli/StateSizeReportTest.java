package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The state a run leaves, per table, with the heap in use: in the summary and the JSON report, on both executors. */
class StateSizeReportTest
{
    @Test
    void shouldReportEveryTablesEntriesAndTheHeapOnBothExecutors() throws Exception
    {
        long engineEntries = -1;
        for (final String executor : new String[] {"tpg", "serial"})
        {
            final Captured text = Captured.run("run", "lb", "--generate", "packets=20000,flows=3000,seed=3", "--executor", executor,
                "--no-progress");
            assertEquals(0, text.status(), text.err());
            assertTrue(text.out().matches("(?s).*state entries +[0-9,]+ in [0-9]+ tables \\(heap in use [0-9,]+ MiB of [0-9,]+ MiB\\).*"),
                text.out());

            final Captured json = Captured.run("run", "lb", "--generate", "packets=20000,flows=3000,seed=3", "--executor", executor,
                "--no-progress", "--json");
            final JsonNode state = new ObjectMapper().readTree(json.out()).get("state");
            long sum = 0;
            for (final JsonNode table : state.get("tables"))
            {
                sum += table.get("entries").asLong();
            }
            assertEquals(state.get("entries").asLong(), sum);
            assertEquals("lb.connections", state.get("tables").get(0).get("table").asText());
            assertTrue(state.get("tables").get(0).get("entries").asLong() > 0, state.toString());
            assertTrue(state.get("heap_used_bytes").asLong() > 0 && state.get("heap_used_bytes").asLong() <= state.get("heap_max_bytes").asLong());
            if (engineEntries < 0)
            {
                engineEntries = sum;
            }
            else
            {
                assertEquals(engineEntries, sum, "the engine and the oracle leave the same state");
            }
        }
    }
}
