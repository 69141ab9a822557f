package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.GeneratorConfig;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Isolation stated as equivalence: for random mixes of 2 to 8 tenants (bundled or random inline
 * chains, random classifiers, rate and state limits, sometimes a default tenant) on random
 * traffic, each tenant's outputs and final state in the multi-tenant chain equal the serial
 * oracle's on a chain of that tenant alone, run on that tenant's packets alone; on the serial
 * oracle and on the engine at 1 and 2 executor threads with every scheduling strategy. No
 * tenant can observe another: not through state, not through its limiter, not through the
 * batches they share. The suite checks {@code transnfv.tenants.seeds} seeds (6).
 *
 * <p>VNFs take expiry periods of their own, different across tenants: each VNF's housekeeping
 * falls on its own period's multiples whatever the others' (ChainRuntime#vnfTickNs). Tenants take
 * {@code entries} limits small enough to fill their tables, and the capacity checks that judge a
 * tenant's tables fall by its own packets and its own VNFs' periods (TableCapacities), so which
 * of its packets are dropped as {@code state-full} is its own business too. Packet time itself is every tenant's: a tenant's run alone ends with one
 * packet of a tenant {@code clock} at the mix's last time, so that its state ends at the same time.
 * A negative control runs two tenants that share state outside their tables and expects the
 * check to find it.
 */
class TenantIsolationPropertyTest
{
    private static final int[] THREADS = {1, 2};
    private static final int CLOCK_VLAN = 4000;
    private static final int[] BATCHES = {1, 3, 16, 64, 512};
    private static final List<String> BUNDLED = List.of("nat-lb-td", "lb", "fw-portscan-monitor");
    private static final List<String> TYPES =
        List.of("nat", "load-balancer", "firewall", "port-scan-detector", "trojan-detector", "flow-monitor");

    @TempDir
    Path directory;

    /** A tenant of a random mix: its YAML item, and how its packets are marked (VLAN and/or DSCP, or none). */
    private record Tenant(String name, String yaml, int vlan, int dscp)
    {
    }

    @TestFactory
    Stream<DynamicTest> shouldGiveEveryTenantWhatItsChainAloneGivesOnItsTrafficAlone()
    {
        final int seeds = Integer.getInteger("transnfv.tenants.seeds", 6);
        return LongStream.range(0, seeds).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
    }

    private void check(final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<TenantRuns.Packet> base = TenantRuns.read(TrafficSpec.generate(traffic(random)));
        final int count = 2 + random.nextInt(7);
        final List<Tenant> tenants = new ArrayList<>();
        for (int t = 0; t < count; t++)
        {
            tenants.add(tenant(t, random));
        }
        final int defaultTenant = random.nextInt(4) == 0 ? random.nextInt(count) : -1;
        final Mix mix = mix("seed " + seed + " (rerun with -Dtest=TenantIsolationPropertyTest)", random, base, tenants, defaultTenant);
        final ChainSpec serial = TenantRuns.chain(mix.yaml(), mix.trace(), mix.batch(), mix.intervalNs(), 1);
        final String oracle = difference(mix, TenantRuns.run(new SerialChainExecutor(serial), serial));
        assertNull(oracle, () -> mix.description() + "\nserial oracle: " + oracle);
        for (final int threads : THREADS)
        {
            for (final String strategy : TpgBatchExecutor.strategyNames())
            {
                final ChainSpec chain = TenantRuns.chain(mix.yaml(), mix.trace(), mix.batch(), mix.intervalNs(), threads);
                final String engine = difference(mix, TenantRuns.run(new BatchedChainExecutor(chain, n -> TpgBatchExecutor.create(n, strategy), strategy),
                    chain));
                assertNull(engine, () -> mix.description() + "\n" + threads + " threads, " + strategy + ": " + engine);
            }
        }
    }

    /**
     * The negative control: two tenants whose VNFs share a packet counter outside the state
     * tables ({@link TestSharedCounterFactory}, wrong on purpose) see each other's packets, and the
     * check must say so.
     */
    @Test
    void shouldFindTenantsThatShareStateOutsideTheirTables() throws IOException
    {
        final SplittableRandom random = new SplittableRandom(7);
        final List<TenantRuns.Packet> base = TenantRuns.read(TrafficSpec.generate(traffic(random)));
        final List<Tenant> tenants = new ArrayList<>();
        for (int t = 0; t < 2; t++)
        {
            tenants.add(new Tenant("t" + t, "  - name: t" + t + "\n    match: { vlan: " + (100 + t) + " }\n    chain: { vnfs: [ { name: v0, type: "
                + TestSharedCounterFactory.TYPE + " } ] }\n", 100 + t, -1));
        }
        final Mix mix = mix("negative control", random, base, tenants, -1);
        final ChainSpec serial = TenantRuns.chain(mix.yaml(), mix.trace(), mix.batch(), mix.intervalNs(), 1);
        final String difference = difference(mix, TenantRuns.run(new SerialChainExecutor(serial), serial));
        assertNotNull(difference, "tenants sharing a counter must not pass as isolated");
        assertTrue(difference.startsWith("outputs of tenant t"), difference);
    }

    /**
     * A trace of the tenants' packets and, per tenant, the oracle's run of that tenant alone on
     * its packets alone.
     *
     * @param sequences per tenant, the positions of its packets in the trace.
     * @param noTenant  the positions of the packets no tenant takes.
     */
    private record Mix(String yaml, Path trace, int batch, long intervalNs, List<Tenant> tenants, List<TenantRuns.Run> expected,
        List<List<Long>> sequences, List<Long> noTenant, String description)
    {
    }

    private Mix mix(final String label, final SplittableRandom random, final List<TenantRuns.Packet> base, final List<Tenant> tenants,
        final int defaultTenant) throws IOException
    {
        final int count = tenants.size();
        // each packet goes to a tenant, or (one in ten) is marked for none
        final List<TenantRuns.Packet> mixed = new ArrayList<>();
        final List<List<TenantRuns.Packet>> alone = new ArrayList<>();
        final List<List<Long>> sequences = new ArrayList<>();
        for (int t = 0; t < count; t++)
        {
            alone.add(new ArrayList<>());
            sequences.add(new ArrayList<>());
        }
        final List<Long> noTenant = new ArrayList<>();
        for (final TenantRuns.Packet packet : base)
        {
            final int pick = random.nextInt(10) == 0 ? -1 : random.nextInt(count);
            final byte[] frame = pick < 0 ? packet.frame() : mark(packet.frame(), tenants.get(pick));
            final TenantRuns.Packet marked = new TenantRuns.Packet(packet.timeNs(), frame);
            final int owner = pick < 0 ? defaultTenant : pick;
            if (owner < 0)
            {
                noTenant.add((long)mixed.size());
            }
            else
            {
                alone.get(owner).add(marked);
                sequences.get(owner).add((long)mixed.size());
            }
            mixed.add(marked);
        }

        final int batch = BATCHES[random.nextInt(BATCHES.length)];
        final long intervalNs = random.nextBoolean() ? 1_000_000_000L : 100_000L + random.nextInt(10_000_000);
        final String yaml = yaml(tenants, defaultTenant, -1);
        final String description = label + ": batch " + batch + ", interval " + intervalNs + " ns, default tenant " + defaultTenant + "\n" + yaml;

        // Packet time is every tenant's: idle entries expire at ticks of it that any packet crosses. A tenant's
        // run alone ends with a packet of a tenant 'clock' at the mix's last time, so its state ends at the same time.
        final TenantRuns.Packet last = mixed.get(mixed.size() - 1);
        final TenantRuns.Packet clock = new TenantRuns.Packet(last.timeNs(), TenantRuns.vlanTagged(base.get(0).frame(), CLOCK_VLAN));
        final List<TenantRuns.Run> expected = new ArrayList<>();
        for (int t = 0; t < count; t++)
        {
            alone.get(t).add(clock);
            final ChainSpec chain = TenantRuns.chain(yaml(tenants, t == defaultTenant ? t : -1, t),
                TenantRuns.pcap(directory, alone.get(t)), batch, intervalNs, 1);
            expected.add(TenantRuns.run(new SerialChainExecutor(chain), chain));
        }
        return new Mix(yaml, TenantRuns.pcap(directory, mixed), batch, intervalNs, tenants, expected, sequences, noTenant, description);
    }

    /** @return null if every tenant's outputs and state in {@code run} are its own run's alone, else the first difference. */
    private static String difference(final Mix mix, final TenantRuns.Run run)
    {
        for (int t = 0; t < mix.tenants().size(); t++)
        {
            final String name = mix.tenants().get(t).name();
            final List<Long> own = mix.sequences().get(t);
            final List<Long> positions = new ArrayList<>();
            for (long i = 0; i < own.size(); i++)
            {
                positions.add(i);
            }
            final String outputs = TenantRuns.firstDifference(mix.expected().get(t).outputsOf(positions), run.outputsOf(own));
            if (outputs != null)
            {
                return "outputs of tenant " + name + ": " + outputs;
            }
            final String state = TenantRuns.firstDifference(mix.expected().get(t).stateOf(name + ".", name + "-"),
                run.stateOf(name + ".", name + "-"));
            if (state != null)
            {
                return "state of tenant " + name + ": " + state;
            }
        }
        for (final long sequence : mix.noTenant())
        {
            if (!run.outputs().get(sequence).contains(" DROP ingress:no-tenant "))
            {
                return "packet " + sequence + " of no tenant: " + run.outputs().get(sequence);
            }
        }
        final long tenantPackets = mix.sequences().stream().mapToLong(List::size).sum();
        return tenantPackets + mix.noTenant().size() == run.outputs().size() ? null
            : "outputs for " + run.outputs().size() + " packets, " + (tenantPackets + mix.noTenant().size()) + " in the trace";
    }

    /** @return the chain of the tenants (or of tenant {@code only} alone when it is not -1). */
    private static String yaml(final List<Tenant> tenants, final int defaultTenant, final int only)
    {
        final StringBuilder out = new StringBuilder("name: mix\ntenants:\n");
        if (only >= 0)
        {
            out.append("  - { name: clock, match: { vlan: ").append(CLOCK_VLAN).append(" }, chain: { vnfs: [ { name: m, type: flow-monitor } ] } }\n");
        }
        for (int t = 0; t < tenants.size(); t++)
        {
            if (only < 0 || t == only)
            {
                out.append(tenants.get(t).yaml());
            }
        }
        if (defaultTenant >= 0)
        {
            out.append("default_tenant: ").append(tenants.get(defaultTenant).name()).append('\n');
        }
        return out.toString();
    }

    private static byte[] mark(final byte[] frame, final Tenant tenant)
    {
        byte[] marked = frame;
        if (tenant.dscp() >= 0)
        {
            marked = TenantRuns.withDscp(marked, tenant.dscp());
            assertTrue(marked != null, "the generator's frames are IPv4");
        }
        return tenant.vlan() >= 0 ? TenantRuns.vlanTagged(marked, tenant.vlan()) : marked;
    }

    /** Tenant {@code t}: VLAN 100+t, DSCP t+1, or both, so no two tenants' marks meet; unmarked packets are no tenant's. */
    private static Tenant tenant(final int t, final SplittableRandom random)
    {
        final String name = "t" + t;
        final int kind = random.nextInt(3);
        final int vlan = kind == 1 ? -1 : 100 + t;
        final int dscp = kind == 0 ? -1 : t + 1;
        final StringBuilder out = new StringBuilder("  - name: ").append(name).append("\n    match: { ");
        if (vlan >= 0)
        {
            out.append("vlan: [").append(vlan).append(random.nextBoolean() ? ", " + (200 + t) : "").append(']').append(dscp >= 0 ? ", " : "");
        }
        if (dscp >= 0)
        {
            out.append("dscp: ").append(dscp);
        }
        out.append(" }\n    chain: ");
        if (random.nextInt(3) == 0)
        {
            out.append(BUNDLED.get(random.nextInt(BUNDLED.size()))).append('\n');
        }
        else
        {
            inline(out, random);
        }
        final List<String> limits = new ArrayList<>();
        if (random.nextBoolean())
        {
            limits.add("pps: " + (50 + random.nextInt(5000)));
            if (random.nextBoolean())
            {
                limits.add("burst: " + (1 + random.nextInt(50)));
            }
        }
        if (random.nextBoolean())
        {
            // small enough that the tenant's tables fill up and refuse (or evict) within the trace
            limits.add("entries: " + (1 + random.nextInt(40)));
        }
        if (!limits.isEmpty())
        {
            out.append("    limits: { ").append(String.join(", ", limits)).append(" }\n");
        }
        return new Tenant(name, out.toString(), vlan, dscp);
    }

    /** Appends a random inline chain of 1 to 3 built-in VNFs, in a line, some edges for TCP only. */
    private static void inline(final StringBuilder out, final SplittableRandom random)
    {
        final int length = 1 + random.nextInt(3);
        out.append("\n      vnfs:\n");
        for (int i = 0; i < length; i++)
        {
            final String type = TYPES.get(random.nextInt(TYPES.size()));
            out.append("        - { name: v").append(i).append(", type: ").append(type).append(", params: { ").append(params(type, random))
                .append(" } }\n");
        }
        if (length > 1)
        {
            out.append("      edges:\n");
            for (int i = 1; i < length; i++)
            {
                out.append("        - { from: v").append(i - 1).append(", to: v").append(i).append(random.nextBoolean() ? ", when: { proto: tcp }" : "")
                    .append(" }\n");
            }
        }
    }

    private static String params(final String type, final SplittableRandom random)
    {
        // expiry periods of their own, so that the chain's ticks fall on the greatest common
        // divisor of several (50 ms for 100 ms and 250 ms, say), and a tenant keeps its own ticks
        final String expiry = EXPIRY[random.nextInt(EXPIRY.length)];
        final String idle = "idle_timeout: " + (1 + random.nextInt(5)) + "s" + expiry;
        return switch (type)
        {
            case "nat" -> "pool_size: " + (random.nextBoolean() ? 1 + random.nextInt(16) : 64 + random.nextInt(4000))
                + ", external_ip: 203.0.113.1, " + idle;
            case "load-balancer" -> "servers: " + (1 + random.nextInt(100)) + ", candidates: " + random.nextInt(9) + ", " + idle;
            case "firewall" -> "internal_net: " + (random.nextBoolean() ? "10.0.0.0/8" : "10.0.0.0/25") + ", " + idle;
            case "port-scan-detector" -> "threshold: " + (1 + random.nextInt(30)) + ", window: " + (1 + random.nextInt(5)) + "s" + expiry;
            case "trojan-detector" -> "window: " + (1 + random.nextInt(5)) + "s" + expiry;
            default -> idle + ", host_idle_timeout: " + (random.nextBoolean() ? "0s" : (1 + random.nextInt(3)) + "s");
        };
    }

    /** A VNF's expiry period: the default (1 s) or one of its own. */
    private static final String[] EXPIRY = {"", ", expiry_interval: 100ms", ", expiry_interval: 250ms", ", expiry_interval: 1500ms",
        ", expiry_interval: 3s"};

    private static GeneratorConfig traffic(final SplittableRandom random)
    {
        final GeneratorConfig.Builder traffic = GeneratorConfig.builder();
        traffic.set("packets", Integer.toString(300 + random.nextInt(900)));
        traffic.set("flows", Integer.toString(1 + random.nextInt(400)));
        traffic.set("new_conn_ratio", Double.toString(0.05 + random.nextDouble() * 0.5));
        traffic.set("tcp_ratio", Double.toString(random.nextDouble()));
        traffic.set("hosts", Integer.toString(1 + random.nextInt(200)));
        traffic.set("servers", Integer.toString(1 + random.nextInt(32)));
        traffic.set("host_skew", Double.toString(random.nextDouble() * 1.5));
        traffic.set("dst_ports", "80,443,53,22,21,6667");
        traffic.set("rate_pps", Integer.toString(random.nextBoolean() ? 200 + random.nextInt(2000) : 1_000_000));
        traffic.set("seed", Long.toString(random.nextLong() & Long.MAX_VALUE));
        return traffic.build();
    }
}
