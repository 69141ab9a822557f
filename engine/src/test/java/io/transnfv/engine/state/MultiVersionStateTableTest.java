package io.transnfv.engine.state;

import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.transnfv.engine.state.MultiVersionStateTable.NO_SLOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MultiVersionStateTableTest
{
    private static MultiVersionStateTable table(final long initialValue)
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("t", TableScope.CROSS_FLOW, KeyKind.INDEX, initialValue, ""));
        return new MultiVersionStateTable(catalog);
    }

    /** One key (table 0, key 7) with three version slots 0 ◄ 1 ◄ 2 in serial order. */
    private static MultiVersionStateTable withThreeSlots(final long committed)
    {
        final MultiVersionStateTable state = table(0);
        state.put(0, 7, committed);
        state.beginBatch(1, 3);
        state.bindKey(0, 0, 7);
        state.bindSlot(0, 0, NO_SLOT);
        state.bindSlot(1, 0, 0);
        state.bindSlot(2, 0, 1);
        return state;
    }

    @Test
    void shouldLetAReadSeeTheLatestVersionBeforeItsPosition()
    {
        final MultiVersionStateTable state = withThreeSlots(5);
        state.write(0, 10);
        state.write(1, 20);
        assertEquals(5, state.read(0, NO_SLOT), "before every version: the committed base");
        assertEquals(10, state.read(0, 0));
        assertEquals(20, state.read(0, 1));
        assertEquals(5, state.get(0, 7), "committed state is untouched until the batch ends");
    }

    @Test
    void shouldRemoveExactlyTheAbortedVersion()
    {
        final MultiVersionStateTable state = withThreeSlots(5);
        state.write(0, 10);
        state.write(1, 20);
        state.write(2, 30);
        state.remove(1);
        assertEquals(10, state.read(0, 1));
        assertEquals(30, state.read(0, 2));
        state.remove(2);
        assertEquals(10, state.read(0, 2));
    }

    @Test
    void shouldRefuseToReadAVersionNotYetWrittenOrRemoved()
    {
        final MultiVersionStateTable state = withThreeSlots(5);
        assertThrows(IllegalStateException.class, () -> state.read(0, 0));
    }

    @Test
    void shouldCollapseEachKeyToItsLastLiveVersionAtBatchEnd()
    {
        final MultiVersionStateTable state = withThreeSlots(5);
        state.write(0, 10);
        state.write(1, 20);
        state.remove(2);
        state.endBatch();
        assertEquals(20, state.get(0, 7));
    }

    @Test
    void shouldDeleteAKeyWhoseLastVersionIsTheInitialValue()
    {
        final MultiVersionStateTable state = withThreeSlots(5);
        state.write(0, 0);
        state.remove(1);
        state.remove(2);
        state.endBatch();
        assertEquals(0, state.size(0));
    }

    @Test
    void shouldLeaveCommittedStateAloneWhenEveryVersionIsRemovedOrTheBatchAbandoned()
    {
        final MultiVersionStateTable removed = withThreeSlots(5);
        removed.remove(0);
        removed.remove(1);
        removed.remove(2);
        removed.endBatch();
        assertEquals(5, removed.get(0, 7));

        final MultiVersionStateTable abandoned = withThreeSlots(5);
        abandoned.write(0, 1);
        abandoned.abandonBatch();
        assertEquals(5, abandoned.get(0, 7));
    }

    @Test
    void shouldRejectCommittedWritesWhileABatchIsOpen()
    {
        final MultiVersionStateTable state = withThreeSlots(5);
        assertThrows(IllegalStateException.class, () -> state.put(0, 1, 1));
    }

    @Test
    void shouldVisitCommittedEntriesInAscendingKeyOrderAndAllowPutsMeanwhile()
    {
        final MultiVersionStateTable state = table(-1);
        state.put(0, 30, 3);
        state.put(0, -5, 1);
        state.put(0, 10, 2);
        final List<Long> keys = new ArrayList<>();
        state.forEach(0, (key, value) ->
        {
            keys.add(key);
            state.put(0, key, -1);
        });
        assertEquals(List.of(-5L, 10L, 30L), keys);
        assertEquals(0, state.size(0));
    }
}
