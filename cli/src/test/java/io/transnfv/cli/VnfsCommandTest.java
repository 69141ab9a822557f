package io.transnfv.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code transnfv vnfs}: every type with its parameters, the ones a running chain may change marked. */
class VnfsCommandTest
{
    @Test
    void shouldMarkExactlyTheParametersARunningChainMayChange()
    {
        final Captured vnfs = Captured.run("vnfs");
        assertEquals(0, vnfs.status(), vnfs.err());
        final List<String> live = vnfs.out().lines().filter(l -> l.contains("(live: POST /params/<vnf>)"))
            .map(l -> l.trim().split("\\s+")[0]).sorted().toList();
        assertEquals(List.of("candidates", "default_action", "rules", "threshold"), live, vnfs.out());
        assertTrue(vnfs.out().lines().anyMatch(l -> l.trim().startsWith("window") && !l.contains("live")), vnfs.out());
    }

    @Test
    void shouldListTheTableRolesAChainMayBindToASharedTable()
    {
        final Captured vnfs = Captured.run("vnfs");
        assertEquals(0, vnfs.status(), vnfs.err());
        final List<String> roles = vnfs.out().lines().filter(l -> l.trim().startsWith("shared role "))
            .map(l -> l.trim().split("\\s+")[2] + " " + l.trim().split("\\s+")[3]).toList();
        assertEquals(List.of("blocklist host", "blocklist host"), roles, vnfs.out());
    }
}
