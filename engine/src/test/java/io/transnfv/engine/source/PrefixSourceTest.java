package io.transnfv.engine.source;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrefixSourceTest
{
    @Test
    void shouldPassOnTheFirstFramesUnchangedAndThenEnd() throws SourceException
    {
        final Generator whole = new Generator(GeneratorConfig.parse("packets=10,seed=3"));
        final PacketBuffer expected = new PacketBuffer();
        final PacketBuffer actual = new PacketBuffer();
        try (PrefixSource prefix = new PrefixSource(new Generator(GeneratorConfig.parse("packets=10,seed=3")), 4))
        {
            for (int i = 0; i < 4; i++)
            {
                assertTrue(whole.next(expected));
                assertTrue(prefix.next(actual), "frame " + i);
                assertEquals(expected.sequence(), actual.sequence());
                assertEquals(expected.length(), actual.length());
            }
            assertFalse(prefix.next(actual));
            assertFalse(prefix.next(actual), "stays at the end");
            assertTrue(prefix.describe().startsWith("first 4 packets of "), prefix.describe());
        }
    }

    @Test
    void shouldEndWithTheSourceWhenTheSourceIsShorter() throws SourceException
    {
        try (PrefixSource prefix = new PrefixSource(new Generator(GeneratorConfig.parse("packets=3")), 100))
        {
            final PacketBuffer buffer = new PacketBuffer();
            int n = 0;
            while (prefix.next(buffer))
            {
                n++;
            }
            assertEquals(3, n);
        }
        assertThrows(IllegalArgumentException.class, () -> new PrefixSource(new Generator(GeneratorConfig.parse("packets=3")), -1));
    }
}
