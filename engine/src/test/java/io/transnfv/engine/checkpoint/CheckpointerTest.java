package io.transnfv.engine.checkpoint;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.MapStateStore;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointerTest
{
    private static final long CHAIN = 42;

    @TempDir
    Path dir;

    private static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("nat", new TableSpec("ports", TableScope.CROSS_FLOW, KeyKind.FLOW, 0, "ports"));
        catalog.add("lb", new TableSpec("load", TableScope.PER_FLOW, KeyKind.FLOW, -1, "load"));
        return catalog;
    }

    private CheckpointSettings settings(final int fullEvery)
    {
        return new CheckpointSettings(dir, 1, 0, fullEvery);
    }

    /**
     * Changes a few random keys of a small key space (so keys are rewritten, deleted and re-added);
     * returns the keys some put changed the value of (a key changed and changed back is among them:
     * the change log cannot know, and writing its value again is harmless).
     */
    private static Set<Long> mutate(final MapStateStore state, final Random random, final int changes)
    {
        final Set<Long> changed = new HashSet<>();
        for (int i = 0; i < changes; i++)
        {
            final int table = random.nextInt(2);
            final long key = random.nextInt(200);
            final long initial = table == 0 ? 0 : -1;
            final long value = random.nextInt(4) == 0 ? initial : random.nextInt(1000);
            if (state.get(table, key) != value)
            {
                changed.add(table * 1_000_000L + key);
            }
            state.put(table, key, value);
        }
        return changed;
    }

    @Test
    void shouldWriteOnlyChangedKeysBetweenFullCheckpointsAndRestoreTheSameState() throws IOException
    {
        final Random random = new Random(7);
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer checkpointer = Checkpointer.start(settings(4), CHAIN, catalog());
        final List<String> dumps = new ArrayList<>();
        for (int c = 1; c <= 9; c++)
        {
            final Set<Long> changedKeys = mutate(state, random, 60);
            final long entriesBefore = checkpointer.entriesWritten();

            checkpointer.take(state, c * 100L, c, new long[] {c});

            final long written = checkpointer.entriesWritten() - entriesBefore;
            final boolean full = c % 4 == 1;
            assertEquals(full ? state.size(0) + state.size(1) : changedKeys.size(), written, "checkpoint " + c);
            assertTrue(Files.exists(checkpointer.store().file(c, full)), "checkpoint " + c + " full=" + full);
            dumps.add(state.dump());
        }
        assertEquals(3, checkpointer.fullTaken());

        final Checkpointer resumed = Checkpointer.resume(settings(4), CHAIN, catalog(), e -> { throw new AssertionError(e); });
        final MapStateStore restored = new MapStateStore(catalog());
        final long[] counters = resumed.restore(restored);

        assertEquals(9, resumed.resumedFrom().id());
        assertEquals(900, resumed.resumeInputPackets());
        assertEquals(9, counters[0]);
        assertEquals(dumps.get(8), restored.dump());
    }

    @Test
    void shouldTakeAFinalCheckpointAtTheStopOnlyWhereNoneIsAlready() throws IOException
    {
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer checkpointer = Checkpointer.start(settings(10), CHAIN, catalog());
        assertNull(checkpointer.finalCheckpoint(), "a run that was not stopped says nothing about a final checkpoint");
        mutate(state, new Random(3), 40);
        checkpointer.take(state, 100, 1, new long[] {1});

        checkpointer.takeFinal(state, 100, 1, new long[] {1});
        assertEquals(1, checkpointer.taken(), "the last checkpoint is already at the stop");
        assertEquals("final checkpoint: checkpoint 1 is already at packet 100", checkpointer.finalCheckpoint());

        mutate(state, new Random(4), 40);
        checkpointer.takeFinal(state, 137, 2, new long[] {2});
        assertEquals(2, checkpointer.taken());
        assertEquals("final checkpoint 2 taken at packet 137", checkpointer.finalCheckpoint());
        final MapStateStore restored = new MapStateStore(catalog());
        final Checkpointer resumed = Checkpointer.resume(settings(10), CHAIN, catalog(), e -> { throw new AssertionError(e); });
        resumed.restore(restored);
        assertEquals(137, resumed.resumeInputPackets(), "a resume goes on from the stop");
        assertEquals(state.dump(), restored.dump());
    }

    @Test
    void shouldSayWhereAResumeStartsWhenFragmentsHeldAtTheStopSkipTheFinalCheckpoint() throws IOException
    {
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer checkpointer = Checkpointer.start(settings(10), CHAIN, catalog());
        checkpointer.skipFinal(2);
        assertTrue(checkpointer.finalCheckpoint().contains("no final checkpoint: 2 IP fragment(s) were held")
            && checkpointer.finalCheckpoint().endsWith("a resume starts from the first packet (no checkpoint was taken)"),
            checkpointer.finalCheckpoint());
        checkpointer.take(state, 64, 1, new long[0]);
        checkpointer.skipFinal(1);
        assertTrue(checkpointer.finalCheckpoint().endsWith("a resume starts from checkpoint 1 at packet 64"), checkpointer.finalCheckpoint());
        assertEquals(1, checkpointer.taken(), "nothing written for the skipped one");
    }

    @Test
    void shouldGoOnFromAResumedCheckpointWithIncrementsOnTheRestoredState() throws IOException
    {
        final Random random = new Random(11);
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer first = Checkpointer.start(settings(100), CHAIN, catalog());
        for (int c = 1; c <= 3; c++)
        {
            mutate(state, random, 50);
            first.take(state, c, c, new long[0]);
        }
        final Checkpointer second = Checkpointer.resume(settings(100), CHAIN, catalog(), e -> { throw new AssertionError(e); });
        final MapStateStore continued = new MapStateStore(catalog());
        second.restore(continued);
        final Set<Long> changed = mutate(continued, random, 30);

        second.take(continued, 4, 4, new long[0]);

        assertEquals(changed.size(), second.entriesWritten(), "the restored state is the base of the next increment");
        final MapStateStore restored = new MapStateStore(catalog());
        Checkpointer.resume(settings(100), CHAIN, catalog(), e -> { throw new AssertionError(e); }).restore(restored);
        assertEquals(continued.dump(), restored.dump());
    }

    @Test
    void shouldFallBackToThePreviousGoodCheckpointWhenTheNewestIsDamaged() throws IOException
    {
        final Random random = new Random(3);
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer checkpointer = Checkpointer.start(settings(2), CHAIN, catalog());
        final Map<Integer, String> dumps = new HashMap<>();
        for (int c = 1; c <= 4; c++)
        {
            mutate(state, random, 40);
            checkpointer.take(state, c, c, new long[0]);
            dumps.put(c, state.dump());
        }
        final Path newest = checkpointer.store().file(4, false);
        final byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 1;
        Files.write(newest, bytes);
        final List<CheckpointException> refused = new ArrayList<>();

        final Checkpointer resumed = Checkpointer.resume(settings(2), CHAIN, catalog(), refused::add);
        final MapStateStore restored = new MapStateStore(catalog());
        resumed.restore(restored);

        assertEquals(3, resumed.resumedFrom().id());
        assertEquals(dumps.get(3), restored.dump());
        assertEquals(1, refused.size());
        assertEquals(newest, refused.get(0).file());
        assertTrue(refused.get(0).getMessage().contains("checksum mismatch"), refused.get(0).getMessage());
    }

    @Test
    void shouldFallBackToTheOlderFullCheckpointWhenTheNewestFullOneIsDamaged() throws IOException
    {
        final Random random = new Random(5);
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer checkpointer = Checkpointer.start(settings(2), CHAIN, catalog());
        final Map<Integer, String> dumps = new HashMap<>();
        for (int c = 1; c <= 4; c++)
        {
            mutate(state, random, 40);
            checkpointer.take(state, c, c, new long[0]);
            dumps.put(c, state.dump());
        }
        // checkpoint 4 is an increment on full checkpoint 3: cutting 3 short leaves 1 + 2
        final Path full = checkpointer.store().file(3, true);
        Files.write(full, java.util.Arrays.copyOf(Files.readAllBytes(full), 40));
        final List<CheckpointException> refused = new ArrayList<>();

        final Checkpointer resumed = Checkpointer.resume(settings(2), CHAIN, catalog(), refused::add);
        final MapStateStore restored = new MapStateStore(catalog());
        resumed.restore(restored);

        assertEquals(2, resumed.resumedFrom().id());
        assertEquals(dumps.get(2), restored.dump());
        assertEquals(2, refused.size(), "checkpoint 4 (through 3) and 3 itself");
        assertTrue(refused.get(1).getMessage().contains(full.toString()), refused.get(1).getMessage());
    }

    @Test
    void shouldKeepTheChainBeforeTheNewestFullCheckpointAndDeleteOlderOnes() throws IOException
    {
        final MapStateStore state = new MapStateStore(catalog());
        final Checkpointer checkpointer = Checkpointer.start(settings(2), CHAIN, catalog());
        for (int c = 1; c <= 7; c++)
        {
            mutate(state, new Random(c), 10);
            checkpointer.take(state, c, c, new long[0]);
        }

        assertEquals(List.of(5L, 6L, 7L), new ArrayList<>(checkpointer.store().files().keySet()));
    }

    @Test
    void shouldStartFromTheBeginningWhenNoCheckpointWasWritten() throws IOException
    {
        final Checkpointer resumed = Checkpointer.resume(settings(2), CHAIN, catalog(), e -> { throw new AssertionError(e); });

        assertNull(resumed.resumedFrom());
        assertEquals(0, resumed.resumeInputPackets());
        assertNull(resumed.restore(new MapStateStore(catalog())));
    }

    @Test
    void shouldRefuseToStartAFreshRunInADirectoryThatHoldsCheckpoints() throws IOException
    {
        Checkpointer.start(settings(2), CHAIN, catalog()).take(new MapStateStore(catalog()), 1, 1, new long[0]);

        final IOException e = assertThrows(IOException.class, () -> Checkpointer.start(settings(2), CHAIN, catalog()));

        assertTrue(e.getMessage().contains("already holds checkpoints") && e.getMessage().contains("fix: --resume"), e.getMessage());
    }

    @Test
    void shouldRefuseAnotherChainsCheckpointsAndStartAfresh() throws IOException
    {
        Checkpointer.start(settings(2), CHAIN, catalog()).take(new MapStateStore(catalog()), 1, 1, new long[0]);
        final List<CheckpointException> refused = new ArrayList<>();

        final Checkpointer resumed = Checkpointer.resume(settings(2), CHAIN + 1, catalog(), refused::add);

        assertNull(resumed.resumedFrom());
        assertEquals(1, refused.size());
        assertTrue(refused.get(0).getMessage().contains("written for another chain"), refused.get(0).getMessage());
    }

    @Test
    void shouldParseIntervalsInBatchesOrPacketTimeAndRejectOthersWithAFix()
    {
        assertEquals(List.of(100L, 0L), List.of(CheckpointSettings.parseInterval("100")[0], CheckpointSettings.parseInterval("100")[1]));
        assertEquals(500_000_000L, CheckpointSettings.parseInterval("500ms")[1]);
        assertEquals(2_000_000_000L, CheckpointSettings.parseInterval("2s")[1]);
        assertEquals(250_000L, CheckpointSettings.parseInterval("250us")[1]);
        for (final String bad : new String[] {"0", "-3", "5m", "ms", "fast"})
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CheckpointSettings.parseInterval(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("\nfix: "), e.getMessage());
        }
        assertFalse(new CheckpointSettings(Path.of("d"), 0, 5, 1).everyBatches() > 0);
    }
}
