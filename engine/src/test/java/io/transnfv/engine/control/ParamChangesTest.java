package io.transnfv.engine.control;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.builtin.firewall.FirewallFactory;
import io.transnfv.vnf.builtin.lb.LoadBalancerFactory;
import io.transnfv.vnf.builtin.portscan.PortScanDetectorFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parameter changes at packet positions: the engine, given a change script, applies each change
 * exactly where the serial oracle does, so the two stay equivalent; the same engine run against
 * an oracle without the changes, or with one change a packet later, is not.
 */
class ParamChangesTest
{
    private static final long PACKETS = 24_000;
    private static final long DENY_ALL_AT = 7_001;

    /** Every live parameter of the built-in types this chain has, changed at least once; the firewall twice. */
    private static void script(final ChainExecutor executor)
    {
        final ParamChanges changes = executor.paramChanges().orElseThrow();
        changes.schedule(3_000, "lb", Map.of("candidates", 1));
        changes.schedule(6_000, "scan", Map.of("threshold", 2));
        final Map<String, Object> fw = new LinkedHashMap<>();
        fw.put("rules", List.of("deny udp any any"));
        fw.put("default_action", "deny");
        changes.schedule(9_000, "fw", fw);
        changes.schedule(15_000, "fw", Map.of("rules", List.of()));
    }

    @Test
    @Timeout(300)
    void shouldStayEquivalentToTheOracleWhenBothChangeParametersAtTheSamePackets() throws IOException
    {
        final ChainSpec chain = chain();
        final ChainExecutor[] engine = new ChainExecutor[1];
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec -> engine[0] = tpg(spec), ParamChangesTest::script);
        assertTrue(result.equivalent(), result::toString);
        assertEquals(PACKETS, result.packets());
        // the load balancer still releases every connection on the server it was given, whatever d was then
        assertEquals(List.of(), result.oracleCheckers().violations(), result::toString);
        assertEquals(List.of(), result.candidateCheckers().violations(), result::toString);

        final List<ParamChanges.Applied> applied = engine[0].paramChanges().orElseThrow().applied();
        assertEquals(List.of(
            new ParamChanges.Applied("lb", "candidates", 0, 1, 3_000),
            new ParamChanges.Applied("scan", "threshold", 20, 2, 6_000),
            new ParamChanges.Applied("fw", "rules", List.of(), List.of("deny udp any any"), 9_000),
            new ParamChanges.Applied("fw", "default_action", "allow", "deny", 9_000),
            new ParamChanges.Applied("fw", "rules", List.of("deny udp any any"), List.of(), 15_000)), sortedByPosition(applied));
    }

    @Test
    @Timeout(300)
    void shouldDifferFromAnOracleThatDidNotChangeTheParameters() throws IOException
    {
        final ChainSpec chain = chain();
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec ->
            {
                final ChainExecutor engine = tpg(spec);
                script(engine);
                return engine;
            });
        assertFalse(result.equivalent(), "the changes change the outputs, so applying them is checked by the test above");
    }

    @Test
    @Timeout(300)
    void shouldDifferFromAnOracleThatChangedOnePacketEarlier() throws IOException
    {
        final ChainSpec chain = chain();
        final Consumer<ChainExecutor> oracleOnly = executor ->
        {
            if (executor instanceof SerialChainExecutor)
            {
                executor.paramChanges().orElseThrow().schedule(DENY_ALL_AT, "fw", Map.of("rules", List.of("deny any any any")));
            }
        };
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(chain, () -> PacketSources.open(chain.settings().traffic()),
            spec ->
            {
                final ChainExecutor engine = tpg(spec);
                engine.paramChanges().orElseThrow().schedule(DENY_ALL_AT + 1, "fw", Map.of("rules", List.of("deny any any any")));
                return engine;
            }, oracleOnly);
        assertFalse(result.equivalent());
        assertEquals(DENY_ALL_AT, result.divergingSequence(), "the one packet the two runs treat differently: " + result);
    }

    @Test
    void shouldRefuseAParameterThatCannotChangeWhileRunningAndAnUnknownVnf()
    {
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain()))
        {
            final ParamChanges changes = oracle.paramChanges().orElseThrow();
            final IllegalArgumentException fixed = assertThrows(IllegalArgumentException.class,
                () -> changes.offer("lb", Map.of("servers", 8)));
            assertTrue(fixed.getMessage().contains("'servers' of VNF 'lb' cannot change while the chain runs"), fixed.getMessage());
            assertThrows(IllegalArgumentException.class, () -> changes.offer("nat", Map.of("candidates", 1)));
            final VnfConfigException bad = assertThrows(VnfConfigException.class,
                () -> changes.offer("lb", Map.of("candidates", 65)));
            assertEquals("'candidates' = 65 is out of range: write a value in [0, 64]", bad.getMessage());
            final VnfConfigException rule = assertThrows(VnfConfigException.class,
                () -> changes.offer("fw", Map.of("rules", List.of("permit tcp any any"))));
            assertTrue(rule.getMessage().startsWith("rules[0] 'permit tcp any any': action 'permit' is not allow or deny"),
                rule.getMessage());
            assertTrue(changes.applied().isEmpty(), "nothing refused is applied");
        }
    }

    private static List<ParamChanges.Applied> sortedByPosition(final List<ParamChanges.Applied> applied)
    {
        return applied.stream().sorted((a, b) -> Long.compare(a.atPacket(), b.atPacket())).toList();
    }

    private static ChainExecutor tpg(final ChainSpec spec)
    {
        return new BatchedChainExecutor(spec, threads -> TpgBatchExecutor.create(threads, TpgBatchExecutor.DEFAULT_STRATEGY),
            "tpg");
    }

    /** A firewall, the port-scan detector and a load balancer, in a line, over mostly TCP traffic with many new connections. */
    static ChainSpec chain()
    {
        final VnfFactory fw = new FirewallFactory();
        final VnfFactory scan = new PortScanDetectorFactory();
        final VnfFactory lb = new LoadBalancerFactory();
        final GeneratorConfig traffic = GeneratorConfig.builder().set("packets", Long.toString(PACKETS))
            .set("new_conn_ratio", "0.3").set("tcp_ratio", "0.8").build();
        return new ChainSpec("fw-scan-lb", "", List.of(
            new VnfNode("fw", fw, VnfConfig.of(fw.params(), Map.of("internal_net", List.of("0.0.0.0/0")))),
            new VnfNode("scan", scan, VnfConfig.defaults(scan.params())),
            new VnfNode("lb", lb, VnfConfig.defaults(lb.params()))),
            List.of(new EdgeSpec("fw", "out", EdgeSpec.ALWAYS, "", "scan"), new EdgeSpec("scan", "out", EdgeSpec.ALWAYS, "", "lb")),
            RunSettings.defaults().withTraffic(TrafficSpec.generate(traffic)).withExecutorThreads(2));
    }
}
