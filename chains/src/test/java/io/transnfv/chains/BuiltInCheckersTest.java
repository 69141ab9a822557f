package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.instance.MapStateStore;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built-in VNFs' state checkers: they hold after real runs, and a state broken the way a buggy
 * NAT or load balancer would break it trips them, naming the entries.
 */
class BuiltInCheckersTest
{
    @Test
    void shouldFindANatPortMappedForTwoFlowsAndAPortThatLeaked() throws IOException
    {
        try (SerialChainExecutor oracle = ran("nat-lb-td"))
        {
            assertTrue(oracle.finalCheck().orElseThrow().held());
            final MapStateStore state = oracle.state();
            final int mappings = oracle.runtime().catalog().find("nat", "mappings");
            final int ports = oracle.runtime().catalog().find("nat", "ports");
            final long[] first = firstEntry(state, mappings);
            // a second endpoint given the first one's mapping: one port serving two flows
            state.put(mappings, first[0] + 1, first[1]);
            // and a port owned by an endpoint that has no mapping
            state.put(ports, 0xFFFFL, 0x1234L);

            final CheckerReport report = oracle.finalCheck().orElseThrow();
            assertEquals(List.of("port-owned-by-its-mapping", "port-has-its-mapping"),
                report.violations().stream().map(CheckerReport.Violation::checker).toList(), String.valueOf(report));
            assertTrue(report.violations().stream().allMatch(v -> v.vnf().equals("nat") && v.count() == 1), String.valueOf(report));
            assertTrue(report.violations().get(1).firstMessage().contains("owned by endpoint 1234, whose mapping does not exist"),
                report.violations().get(1).firstMessage());
        }
    }

    @Test
    void shouldFindAServerLoadThatDoesNotCountItsConnections() throws IOException
    {
        try (SerialChainExecutor oracle = ran("lb"))
        {
            assertTrue(oracle.finalCheck().orElseThrow().held());
            final int active = oracle.runtime().catalog().find("lb", "active");
            final long[] loaded = firstEntry(oracle.state(), active);
            oracle.state().put(active, loaded[0], loaded[1] + 2);

            final CheckerReport report = oracle.finalCheck().orElseThrow();
            assertEquals(1, report.violations().size(), String.valueOf(report));
            final CheckerReport.Violation v = report.violations().get(0);
            assertEquals("load-counts-its-connections", v.checker());
            assertEquals(Long.toHexString(loaded[0]), v.firstKey(), "the server is the violation's key");
            assertEquals("server " + loaded[0] + " counts " + (loaded[1] + 2) + " open connections; " + loaded[1] + " name it",
                v.firstMessage());
        }
    }

    @Test
    void shouldFindMonitorCountersThatWentApartAndAFirewallConnectionWithoutItsTuple() throws IOException
    {
        try (SerialChainExecutor oracle = ran("fw-portscan-monitor"))
        {
            assertTrue(oracle.finalCheck().orElseThrow().held());
            final MapStateStore state = oracle.state();
            final int packets = oracle.runtime().catalog().find("monitor", "flow-packets");
            final int bytes = oracle.runtime().catalog().find("monitor", "flow-bytes");
            final long[] flow = firstEntry(state, packets);
            // the flow's bytes lost, as a sweep that forgot one table would leave it
            state.put(bytes, flow[0], 0L);
            // an IPv6 connection tracked without the tuple it is verified against
            state.put(oracle.runtime().catalog().find("fw", "connections-v6"), 0x5eedL, 1L);

            final CheckerReport report = oracle.finalCheck().orElseThrow();
            assertEquals(List.of("fw v6-connection-keeps-its-tuple", "monitor flow-counters-together"),
                report.violations().stream().map(v -> v.vnf() + " " + v.checker()).toList(), String.valueOf(report));
            assertEquals("flow " + Long.toHexString(flow[0]) + " has " + flow[1] + " packets but no bytes",
                report.violations().get(1).firstMessage());
        }
    }

    @Test
    void shouldFindATrojanDetectorStagePastItsPattern() throws IOException
    {
        try (SerialChainExecutor oracle = ran("nat-lb-td"))
        {
            final int progress = oracle.runtime().catalog().find("td", "progress");
            oracle.state().put(progress, 0x77L, (1_000L << 8) | 3);

            final CheckerReport report = oracle.finalCheck().orElseThrow();
            assertEquals(1, report.violations().size(), String.valueOf(report));
            assertEquals("stage-within-pattern", report.violations().get(0).checker());
            assertEquals("host 77 at stage 3 of a pattern of 3 ports", report.violations().get(0).firstMessage());
        }
    }

    @Test
    void shouldHoldOnEveryBundledChainAfterARun() throws IOException
    {
        for (final String name : ChainLoader.BUNDLED)
        {
            try (SerialChainExecutor oracle = ran(name))
            {
                final CheckerReport report = oracle.finalCheck().orElseThrow();
                assertTrue(report.held(), name + ": " + report);
                assertEquals(oracle.runtime().checkerNames(), report.checkers(), "every declared checker runs by default");
            }
        }
    }

    private static SerialChainExecutor ran(final String bundled) throws IOException
    {
        final ChainSpec loaded = new ChainLoader().loadBundled(bundled);
        final ChainSpec chain = loaded.withSettings(loaded.settings()
            .withTraffic(TrafficSpec.generate(GeneratorConfig.parse("packets=20000,new_conn_ratio=0.3,seed=5"))));
        final SerialChainExecutor oracle = new SerialChainExecutor(chain);
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            oracle.run(source, null);
        }
        return oracle;
    }

    private static long[] firstEntry(final MapStateStore state, final int table)
    {
        final long[] entry = {Long.MIN_VALUE, 0};
        state.forEach(table, (key, value) ->
        {
            if (entry[0] == Long.MIN_VALUE)
            {
                entry[0] = key;
                entry[1] = value;
            }
        });
        assertTrue(entry[0] != Long.MIN_VALUE, "the run left an entry in table " + table);
        return entry;
    }
}
