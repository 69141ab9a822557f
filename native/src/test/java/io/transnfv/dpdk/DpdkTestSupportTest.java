package io.transnfv.dpdk;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Without DPDK the DPDK tests fail, unless a developer opts out explicitly (runs without DPDK). */
class DpdkTestSupportTest
{
    private static final String NOT_BUILT = "pkg-config found no libdpdk when this was built";

    @Test
    void shouldFailNotSkipWhenDpdkIsRequiredAndMissing()
    {
        final AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> DpdkTestSupport.requireOrSkip(NOT_BUILT, true));
        assertTrue(e.getMessage().contains(NOT_BUILT), e.getMessage());
        assertTrue(e.getMessage().contains("-Dtransnfv.dpdk.required=false"), "names the opt-out: " + e.getMessage());
    }

    @Test
    void shouldSkipWhenTheDeveloperOptedOutAndDpdkIsMissing()
    {
        final TestAbortedException e = assertThrows(TestAbortedException.class, () -> DpdkTestSupport.requireOrSkip(NOT_BUILT, false));
        assertTrue(e.getMessage().contains(NOT_BUILT), e.getMessage());
    }

    @Test
    void shouldRunWhenDpdkIsAvailableEitherWay()
    {
        assertDoesNotThrow(() -> DpdkTestSupport.requireOrSkip(null, true));
        assertDoesNotThrow(() -> DpdkTestSupport.requireOrSkip(null, false));
    }
}
