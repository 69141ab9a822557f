package io.transnfv.vnf.builtin;

import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.harness.VnfHarness;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuiltinRegistryTest
{
    @Test
    void shouldRegisterEveryBuiltinTypeThroughTheServiceLoader()
    {
        final VnfRegistry registry = VnfRegistry.load();
        assertTrue(registry.types().keySet().containsAll(
            Set.of("nat", "load-balancer", "trojan-detector", "firewall", "port-scan-detector", "flow-monitor")),
            registry.types().keySet().toString());
    }

    @Test
    void shouldCreateEveryBuiltinTypeFromItsDefaults()
    {
        for (final VnfFactory factory : VnfRegistry.load().types().values())
        {
            assertFalse(factory.description().isBlank(), factory.type());
            VnfConfig.defaults(factory.params());
            final VnfHarness harness = VnfHarness.of(factory, Map.of());
            assertEquals(factory.type(), harness.instance().name());
            assertTrue(harness.instance().expiryIntervalNs() > 0, factory.type());
        }
    }
}
