package io.transnfv.engine.chain;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpAddressTest
{
    @Test
    void shouldListenOnLoopbackWhenOnlyAPortIsGiven()
    {
        assertEquals(new HttpAddress("127.0.0.1", 9100), HttpAddress.parse("9100"));
        assertEquals(new HttpAddress("127.0.0.1", 9100), HttpAddress.parse(":9100"));
        assertTrue(HttpAddress.parse("9100").resolve().getAddress().isLoopbackAddress());
        assertFalse(HttpAddress.parse("9100").everyInterface());
    }

    @Test
    void shouldListenOnEveryInterfaceOnlyWhenWrittenOut()
    {
        assertEquals(new HttpAddress("0.0.0.0", 9100), HttpAddress.parse("0.0.0.0:9100"));
        assertTrue(HttpAddress.parse("0.0.0.0:9100").everyInterface());
        assertTrue(HttpAddress.parse("[::]:9100").everyInterface());
        assertFalse(HttpAddress.parse("localhost:9100").everyInterface());
    }

    @Test
    void shouldReadHostsPortsAndBracketedIpv6()
    {
        assertEquals(new HttpAddress("localhost", 0), HttpAddress.parse("localhost:0"));
        assertEquals(new HttpAddress("::1", 9100), HttpAddress.parse("[::1]:9100"));
    }

    @Test
    void shouldRejectWhatCannotBeListenedOnSayingHowToFixIt()
    {
        for (final String bad : new String[] {"http", "9100x", "70000", "-1", "::1:9100", "[::1]9100", "host:"})
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HttpAddress.parse(bad), bad);
            assertTrue(e.getMessage().contains("fix:"), e.getMessage());
        }
    }
}
