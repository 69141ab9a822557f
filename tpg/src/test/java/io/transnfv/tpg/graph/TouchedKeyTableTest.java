package io.transnfv.tpg.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TouchedKeyTableTest
{
    @Test
    void shouldHandOutDenseIdsInFirstTouchOrderPerTableAndKey()
    {
        final TouchedKeyTable keys = new TouchedKeyTable(4);
        assertEquals(0, keys.idOf(0, 42));
        assertEquals(1, keys.idOf(1, 42));
        assertEquals(0, keys.idOf(0, 42));
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(2 + i, keys.idOf(2, i * 7919L));
        }
        assertEquals(1, keys.find(1, 42));
        assertEquals(1002, keys.size());
        assertEquals(7919L * 5, keys.key(7));
    }

    @Test
    void shouldClearByWalkingOnlyTheTouchedSlots()
    {
        final TouchedKeyTable keys = new TouchedKeyTable(1 << 16);
        keys.idOf(0, 1);
        keys.idOf(0, 2);
        keys.clear();
        assertEquals(2, keys.slotsCleared());
        assertEquals(TouchedKeyTable.MISSING, keys.find(0, 1));
        assertEquals(0, keys.idOf(0, 2));
    }
}
