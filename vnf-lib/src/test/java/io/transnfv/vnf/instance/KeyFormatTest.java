package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.KeyKind;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyFormatTest
{
    @Test
    void shouldReadBackEveryKeyItWritesForEveryKind()
    {
        final SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 10_000; i++)
        {
            final long any = random.nextLong();
            final long host = random.nextLong() >>> 32;
            final long endpoint = (random.nextLong() >>> 32) << 24 | (long)random.nextInt(0x10000) << 8 | random.nextInt(256);
            check(KeyKind.INDEX, any);
            check(KeyKind.FLOW, any);
            check(KeyKind.OPAQUE, any);
            check(KeyKind.HOST, host);
            check(KeyKind.HOST, any);
            check(KeyKind.ENDPOINT, endpoint);
        }
        assertEquals(0x0a000001L, KeyFormat.parse(KeyKind.HOST, "10.0.0.1"));
        assertEquals(0x0a000001L << 24 | 80L << 8 | 6, KeyFormat.parse(KeyKind.ENDPOINT, "10.0.0.1:80/tcp"));
    }

    @Test
    void shouldSayWhichFormAKindExpects()
    {
        for (final String[] bad : new String[][] {{"HOST", "10.0.0"}, {"HOST", "10.0.0.256"}, {"ENDPOINT", "10.0.0.1:80"},
            {"ENDPOINT", "10.0.0.1:70000/tcp"}, {"INDEX", "x"}, {"FLOW", "12"}, {"FLOW", "0xzz"}})
        {
            final KeyKind kind = KeyKind.valueOf(bad[0]);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyFormat.parse(kind, bad[1]),
                bad[1]);
            assertTrue(e.getMessage().contains(KeyFormat.expected(kind)), e.getMessage());
        }
    }

    private static void check(final KeyKind kind, final long key)
    {
        assertEquals(key, KeyFormat.parse(kind, KeyFormat.format(kind, key)), () -> kind + " " + KeyFormat.format(kind, key));
    }
}
