package io.transnfv.chains;

import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.builtin.lb.LoadBalancerFactory;
import io.transnfv.vnf.builtin.portscan.PortScanDetectorFactory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A change of a running VNF's parameters is judged in the chain validator's words, and refused for a parameter fixed for the run. */
class LiveParamsTest
{
    private final VnfFactory scan = new PortScanDetectorFactory();

    @Test
    void shouldSayWhatTheValidatorSaysAboutTheSameValueInYaml()
    {
        for (final Map.Entry<String, Object> value : List.of(Map.<String, Object>entry("threshold", "many"),
            Map.<String, Object>entry("threshold", 0), Map.<String, Object>entry("treshold", 3)))
        {
            final LiveParams.Problem problem = LiveParams.check(scan, "scan", Map.of(value.getKey(), value.getValue()))
                .orElseThrow();
            final List<ChainError> errors = new ChainLoader().validate("name: t\nvnfs:\n  - name: scan\n    type: port-scan-detector\n"
                + "    params:\n      " + value.getKey() + ": " + value.getValue() + "\n", "t.yaml");
            assertEquals(1, errors.size(), errors::toString);
            assertEquals(errors.get(0).message(), problem.message());
            assertEquals(errors.get(0).fix(), problem.fix());
            assertEquals(value.getKey(), problem.parameter());
        }
    }

    @Test
    void shouldRefuseAParameterFixedForTheRunNamingTheLiveOnes()
    {
        final LiveParams.Problem problem = LiveParams.check(new LoadBalancerFactory(), "lb", Map.of("servers", 8)).orElseThrow();
        assertEquals(LiveParams.Kind.NOT_LIVE, problem.kind());
        assertEquals("parameter 'servers' of VNF 'lb' cannot change while the chain runs", problem.message());
        assertTrue(problem.fix().endsWith("the parameters of type 'load-balancer' that may change while it runs: candidates"),
            problem.fix());
        assertEquals(Optional.empty(), LiveParams.check(new LoadBalancerFactory(), "lb", Map.of("candidates", 2)));
        assertEquals(LiveParams.Kind.BAD_VALUE, LiveParams.check(scan, "scan", Map.of()).orElseThrow().kind());
    }
}
