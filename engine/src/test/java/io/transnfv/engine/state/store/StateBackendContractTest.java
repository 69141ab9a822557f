package io.transnfv.engine.state.store;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What every {@link StateBackend} promises, run by one thin subclass per store: absent keys read
 * as the table's initial value, storing it deletes, batches load and store like single calls,
 * tables do not mix, {@code clear} empties one table.
 */
abstract class StateBackendContractTest
{
    static final long INITIAL_A = 0;
    static final long INITIAL_B = -1;

    TableCatalog catalog;
    StateBackend backend;

    /** @return a store holding tables 0 ("a", initial 0) and 1 ("b", initial -1) of {@code catalog}, empty. */
    abstract StateBackend open(TableCatalog catalog) throws Exception;

    @BeforeEach
    void openStore() throws Exception
    {
        catalog = new TableCatalog();
        catalog.add("v", new TableSpec("a", TableScope.PER_FLOW, KeyKind.FLOW, INITIAL_A, "a"));
        catalog.add("v", new TableSpec("b", TableScope.CROSS_FLOW, KeyKind.FLOW, INITIAL_B, "b"));
        catalog.expectEntries(0, 10_000);
        catalog.expectEntries(1, 10_000);
        backend = open(catalog);
    }

    @AfterEach
    void closeStore() throws Exception
    {
        backend.close();
    }

    @Test
    void shouldReadAnAbsentKeyAsItsTablesInitialValue()
    {
        assertEquals(INITIAL_A, backend.get(0, 42));
        assertEquals(INITIAL_B, backend.get(1, 42));
        assertEquals(0, backend.size(0));
    }

    @Test
    void shouldDeleteAKeyWhenItsInitialValueIsStored()
    {
        backend.put(0, Long.MIN_VALUE, 7);
        backend.put(0, Long.MAX_VALUE, -7);
        assertEquals(2, backend.size(0));
        backend.put(0, Long.MIN_VALUE, INITIAL_A);
        assertEquals(1, backend.size(0));
        assertArrayEquals(new long[] {Long.MAX_VALUE}, backend.keys(0));
        assertEquals(-7, backend.get(0, Long.MAX_VALUE));
    }

    @Test
    void shouldKeepTablesApart()
    {
        backend.put(0, 5, 50);
        backend.put(1, 5, 51);
        assertEquals(50, backend.get(0, 5));
        assertEquals(51, backend.get(1, 5));
        backend.clear(0);
        assertEquals(INITIAL_A, backend.get(0, 5));
        assertEquals(51, backend.get(1, 5));
    }

    @Test
    void shouldLoadAndStoreABatchAsSingleCallsWould()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final KeyBatch batch = new KeyBatch(new int[] {0, 1});
        final long[] expectedA = new long[500];
        for (int k = 0; k < 500; k++)
        {
            final long value = random.nextInt(4) == 0 ? INITIAL_A : random.nextLong();
            batch.add(0, k * 1_000_003L - 250_000_000L, value);
            batch.add(1, k, k % 3 == 0 ? INITIAL_B : k);
            expectedA[k] = value;
        }
        backend.store(batch);
        final KeyBatch read = new KeyBatch(new int[] {0, 1});
        for (int k = 0; k < 500; k++)
        {
            read.add(0, k * 1_000_003L - 250_000_000L, 99);
            read.add(1, k, 99);
        }
        read.add(0, 123_456_789_012L, 99);
        backend.load(read);
        assertArrayEquals(expectedA, Arrays.copyOf(read.values(0), 500));
        assertEquals(INITIAL_A, read.values(0)[500], "a key never stored reads as the initial value");
        for (int k = 0; k < 500; k++)
        {
            assertEquals(k % 3 == 0 ? INITIAL_B : k, read.values(1)[k]);
            assertEquals(expectedA[k], backend.get(0, k * 1_000_003L - 250_000_000L));
        }
        assertEquals(Arrays.stream(expectedA).filter(v -> v != INITIAL_A).count(), backend.size(0));
    }
}
