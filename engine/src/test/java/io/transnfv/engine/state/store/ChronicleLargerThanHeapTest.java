package io.transnfv.engine.state.store;

import io.transnfv.engine.chain.StoreKind;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Chronicle table larger than the heap: a forked JVM with a small heap binds and writes back
 * batches through the state table until the table holds more entries than its heap could (16
 * bytes of key and value each, before any map overhead), then reads a sample back. The default
 * suite fills 3 million entries under {@code -Xmx40m}; {@code -Pstress} 20 million under
 * {@code -Xmx256m}.
 */
class ChronicleLargerThanHeapTest
{
    private static final int BATCH_KEYS = 4096;

    @Test
    void shouldHoldMoreEntriesOffHeapThanTheHeapCould() throws Exception
    {
        fillInForkedJvm(3_000_000, "40m");
    }

    @Tag("stress")
    @Test
    void shouldHoldTwentyMillionEntriesUnderASmallHeap() throws Exception
    {
        fillInForkedJvm(20_000_000, "256m");
    }

    private static void fillInForkedJvm(final long entries, final String heap) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("-Xmx" + heap);
        for (final String option : ChronicleStateBackend.JVM_OPTIONS.split(" "))
        {
            command.add(option);
        }
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(Fill.class.getName());
        command.add(Long.toString(entries));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output;
        final boolean ended = process.waitFor(10, TimeUnit.MINUTES);
        if (!ended)
        {
            process.destroyForcibly();
        }
        output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ended, "the forked JVM did not end: " + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("entries " + entries), output);
        final long heapBytes = Runtime.getRuntime().maxMemory();
        assertTrue(entries * 16 > parseBytes(heap) || heapBytes == 0, "the table must be larger than the forked heap");
    }

    private static long parseBytes(final String heap)
    {
        return Long.parseLong(heap.substring(0, heap.length() - 1)) << 20;
    }

    /** The forked JVM: fills one Chronicle table through the state table's bind and write-back, batch by batch. */
    public static final class Fill
    {
        private Fill()
        {
        }

        public static void main(final String[] args)
        {
            final long entries = Long.parseLong(args[0]);
            final TableCatalog catalog = new TableCatalog();
            catalog.add("lb", new TableSpec("connections", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "big"));
            catalog.expectEntries(0, entries);
            try (TableStores stores = TableStores.open(catalog, new StoreKind[] {StoreKind.CHRONICLE}, StoreSettings.defaults(), "big"))
            {
                final MultiVersionStateTable state = new MultiVersionStateTable(catalog, stores);
                final TransactionLog log = new TransactionLog(BATCH_KEYS, BATCH_KEYS);
                for (long next = 0; next < entries; )
                {
                    log.clear();
                    final long end = Math.min(entries, next + BATCH_KEYS);
                    for (long k = next; k < end; k++)
                    {
                        log.begin(k, k, null);
                        log.write(0, key(k), k + 1);
                        log.end();
                    }
                    state.bindStores(log);
                    // the serial schedule's way: each write applied in place to the bound keys
                    for (long k = next; k < end; k++)
                    {
                        state.put(0, key(k), state.get(0, key(k)) + k + 1);
                    }
                    state.releaseStores();
                    next = end;
                }
                for (long k = 0; k < entries; k += 99_991)
                {
                    if (state.get(0, key(k)) != k + 1)
                    {
                        throw new AssertionError("key " + k + " holds " + state.get(0, key(k)));
                    }
                }
                final Runtime runtime = Runtime.getRuntime();
                System.out.println("entries " + state.size(0) + ", heap max " + (runtime.maxMemory() >> 20) + " MiB, "
                    + stores.backends().get(0).describe());
            }
        }

        private static long key(final long k)
        {
            return k * 0x9E3779B97F4A7C15L;
        }
    }
}
