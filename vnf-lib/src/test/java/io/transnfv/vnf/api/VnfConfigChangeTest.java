package io.transnfv.vnf.api;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A configuration changed while a VNF runs: converted and checked as at setup, written back so it reads the same. */
class VnfConfigChangeTest
{
    private static final List<ParamSpec> SPECS = List.of(
        ParamSpec.optional("threshold", ParamKind.INT, 20, "targets").range(1, 100).whileRunning(),
        ParamSpec.optional("window", ParamKind.DURATION, 10_000_000_000L, "the window"),
        ParamSpec.optional("rules", ParamKind.STRING_LIST, List.of(), "rules").whileRunning());

    @Test
    void shouldChangeOnlyTheGivenParametersConvertedAsAtSetup()
    {
        final VnfConfig config = VnfConfig.defaults(SPECS);
        final VnfConfig next = config.with(SPECS, Map.of("threshold", "30", "rules", "deny udp any any, allow tcp any any"));
        assertEquals(30, next.getInt("threshold"));
        assertEquals(List.of("deny udp any any", "allow tcp any any"), next.getStringList("rules"));
        assertEquals(10_000_000_000L, next.getDurationNs("window"));
        assertEquals(20, config.getInt("threshold"), "the configuration changed from is left as it was");
    }

    @Test
    void shouldRefuseAChangeWithTheMessagesOfSetup()
    {
        final VnfConfig config = VnfConfig.defaults(SPECS);
        final VnfConfigException range = assertThrows(VnfConfigException.class, () -> config.with(SPECS, Map.of("threshold", 0)));
        assertEquals(assertThrows(VnfConfigException.class, () -> VnfConfig.of(SPECS, Map.of("threshold", 0))).getMessage(),
            range.getMessage());
        final VnfConfigException unknown = assertThrows(VnfConfigException.class, () -> config.with(SPECS, Map.of("treshold", 3)));
        assertEquals("treshold", unknown.param());
    }

    @Test
    void shouldMarkLiveParametersAndWriteValuesBackAsYamlReadsThem()
    {
        assertTrue(SPECS.get(0).live());
        assertFalse(SPECS.get(1).live());
        assertTrue(SPECS.get(0).range(1, 50).live(), "a range keeps the mark");
        final Object window = SPECS.get(1).plain(2_500_000L);
        assertEquals("2500000ns", window);
        assertEquals(2_500_000L, VnfConfig.of(SPECS, Map.of("window", window)).getDurationNs("window"));
        assertEquals(7, SPECS.get(0).plain(7));
    }
}
