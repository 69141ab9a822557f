package io.transnfv.engine.state.store;

import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The store contract on Chronicle Map, and its persistence file as a warm-restart cache. */
class ChronicleStateBackendTest extends StateBackendContractTest
{
    @TempDir
    Path dir;

    @Override
    StateBackend open(final TableCatalog catalog)
    {
        return new ChronicleStateBackend(catalog, new boolean[] {true, true}, new long[] {10_000, 10_000}, null);
    }

    @Test
    void shouldStartFromWhatItsFileHoldsWhenPersisted()
    {
        final boolean[] mine = {true, true};
        final long[] entries = {10_000, 10_000};
        try (ChronicleStateBackend first = new ChronicleStateBackend(catalog, mine, entries, dir))
        {
            for (long k = 0; k < 1000; k++)
            {
                first.put(0, k, k * k + 1);
            }
            first.put(1, 3, 33);
        }
        assertTrue(Files.isRegularFile(dir.resolve("v.a.cm")), "one file per table, named <vnf>.<table>.cm");
        try (ChronicleStateBackend second = new ChronicleStateBackend(catalog, mine, entries, dir))
        {
            assertEquals(1000, second.size(0));
            assertEquals(999L * 999 + 1, second.get(0, 999));
            assertEquals(33, second.get(1, 3));
            assertTrue(second.describe().contains("persisted"), second.describe());
        }
    }
}
