package io.transnfv.experiments.runner;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.source.GeneratorConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The experiments {@code transnfv experiment} runs, each a sweep of {@link Point}s. The
 * engine and its baselines run at every point on the same pre-generated traffic.
 *
 * <p>Traffic: the deterministic generator, TCP, Zipf skew 0.2 over client hosts and over
 * destination addresses, 64–128-byte frames (frame size does not change the state work and
 * small frames keep the whole capture in memory), seed 42.
 */
public enum Experiment
{
    /** The paper's Fig. 3a/3b/3c: the load balancer alone across new-connection ratios and server pools. */
    LB_NEW_CONN("lb-new-conn", "load balancer, d = 5, new-connection ratio sweep"),
    /** The nat-lb-td chain across new-connection ratios. */
    CHAIN("chain", "nat -> lb -> td chain, new-connection ratio sweep"),
    /** 1..N executor threads on the load balancer at 5 % new connections. */
    THREADS("threads", "load balancer at 5 % new connections, executor threads 1..N"),
    /** Punctuation size against throughput and latency on the load balancer at 5 % new connections. */
    BATCH("batch", "load balancer at 5 % new connections, punctuation size sweep"),
    /**
     * Latency under load: each executor's capacity unpaced, then the traffic replayed paced at
     * shares of the engine's capacity through a NIC-like receive ring (MoonGen/Pktgen style).
     */
    LATENCY("latency", "load balancer, 7,200 servers, 5 % new connections, latency against offered load"),
    /**
     * The load balancer's server loads ({@code active}) serializable against
     * {@code { stale-reads: 1 }}: the engine on both, on the same traffic, interleaved; throughput
     * and the packets and state entries where the stale loads made it differ from the serial oracle.
     */
    STALE_READS("stale-reads", "load balancer, server loads serializable vs { stale-reads: 1 }, 5 % and 60 % new connections"),
    /**
     * A noisy neighbour: three tenants, each a load balancer, told apart by VLAN; two steady ones
     * and one that sends at their rate (calm), at ten times it (noisy), and at ten times it under
     * a rate limit of twice it (limited). Each tenant's packets/s and p99 per executor.
     */
    TENANTS("tenants", "noisy neighbour: two steady tenants and one stepping up 10x, without and with a rate limit");

    /** The tenants experiment's chains: the third tenant calm, noisy, and noisy under its limit. */
    public static final List<String> TENANT_VARIANTS = List.of("tenants-calm", "tenants-noisy", "tenants-noisy-limited");
    /** Each steady tenant's rate in packet time, and the calm third tenant's. */
    public static final int TENANT_RATE_PPS = 100_000;
    /** How much faster the noisy tenant sends. */
    public static final int NOISY_FACTOR = 10;
    /** The noisy tenant's limit, as a multiple of {@link #TENANT_RATE_PPS}. */
    public static final int NOISY_LIMIT_FACTOR = 2;
    /** The noisy tenant's token bucket: packets that may pass at once on top of its limit. */
    public static final int NOISY_BURST = 1_000;
    /** The tenants of the tenants experiment, in the order written: the steady ones, then the one that steps up. */
    public static final List<String> TENANT_NAMES = List.of("steady-a", "steady-b", "noisy");

    /** The chain name of a point running the load balancer with {@code active: { consistency: { stale-reads: 1 } }}. */
    public static final String LB_STALE = "lb-stale";
    /** New-connection ratios of the stale-reads experiment: the 5 % and 60 %. */
    public static final double[] STALE_READS_RATIOS = {0.05, 0.60};

    /** New-connection ratios of the paper's Fig. 3. */
    public static final double[] NEW_CONN_RATIOS = {0.05, 0.10, 0.20, 0.40, 0.60};
    /** Server pools: the paper's 7,200 and 72,000 server keys, and a realistic 64. */
    public static final int[] SERVER_POOLS = {7_200, 72_000, 64};
    /** Zipf skew of the candidate servers over the pool, as in the paper's workload. */
    public static final double CANDIDATE_SKEW = 0.2;
    /** Punctuation sizes of the batch experiment, in transactions. */
    public static final int[] BATCH_SIZES = {16, 32, 64, 256, 1_024, 4_096, 16_384};
    /**
     * The chain's punctuation size when it is not what is swept, for the engine and the baselines
     * alike: 256, not the engine's default of 64, so that the baselines' barrier per batch is paid
     * once per 256 packets (the batch experiment sweeps it).
     */
    public static final int DEFAULT_BATCH = 256;
    /** Candidates per new connection, the paper's d. */
    public static final int CANDIDATES = 5;
    /** Zipf skew of hosts and destinations, the paper's 0.2. */
    public static final double SKEW = 0.2;

    private final String label;
    private final String title;

    Experiment(final String label, final String title)
    {
        this.label = label;
        this.title = title;
    }

    /** @return the name on the command line and in the results path. */
    public String label()
    {
        return label;
    }

    /** @return one line saying what is measured. */
    public String title()
    {
        return title;
    }

    /** @return the experiment called {@code label}. */
    public static Experiment ofLabel(final String label)
    {
        for (final Experiment e : values())
        {
            if (e.label.equals(label))
            {
                return e;
            }
        }
        throw new IllegalArgumentException("no experiment '" + label + "'; experiments: " + labels());
    }

    /** @return every experiment's label, comma-separated. */
    public static String labels()
    {
        final StringBuilder out = new StringBuilder();
        for (final Experiment e : values())
        {
            out.append(out.length() == 0 ? "" : ", ").append(e.label);
        }
        return out.toString();
    }

    /** @return every point of the sweep, grouped so that points sharing traffic are adjacent. */
    public List<Point> points(final ExperimentSettings settings)
    {
        final List<Point> points = new ArrayList<>();
        final int t = settings.threads();
        switch (this)
        {
            case LB_NEW_CONN ->
            {
                for (final int servers : SERVER_POOLS)
                {
                    for (final double ratio : NEW_CONN_RATIOS)
                    {
                        for (final ExecutorKind kind : ExecutorKind.values())
                        {
                            points.add(new Point("lb", servers, ratio, t, DEFAULT_BATCH, kind));
                        }
                    }
                }
            }
            case CHAIN ->
            {
                for (final double ratio : NEW_CONN_RATIOS)
                {
                    for (final ExecutorKind kind : ExecutorKind.values())
                    {
                        points.add(new Point("nat-lb-td", 64, ratio, t, DEFAULT_BATCH, kind));
                    }
                }
            }
            case THREADS ->
            {
                for (int threads = 1; threads <= t; threads++)
                {
                    for (final ExecutorKind kind : ExecutorKind.values())
                    {
                        if (kind != ExecutorKind.SERIAL || threads == 1)
                        {
                            points.add(new Point("lb", SERVER_POOLS[0], 0.05, threads, DEFAULT_BATCH, kind));
                        }
                    }
                }
            }
            case BATCH ->
            {
                for (final int batch : BATCH_SIZES)
                {
                    for (final ExecutorKind kind : ExecutorKind.values())
                    {
                        if (kind != ExecutorKind.PARTITIONED && (kind != ExecutorKind.SERIAL || batch == BATCH_SIZES[0]))
                        {
                            points.add(new Point("lb", SERVER_POOLS[0], 0.05, t, batch, kind));
                        }
                    }
                }
            }
            case LATENCY ->
            {
                // stage 1, capacity: every executor unpaced; stage 2, the sweep, paced at shares of the engine's
                for (final ExecutorKind kind : ExecutorKind.values())
                {
                    points.add(new Point("lb", SERVER_POOLS[0], 0.05, t, DEFAULT_BATCH, kind));
                }
                for (final int percent : settings.offeredLoadPercents())
                {
                    for (final ExecutorKind kind : ExecutorKind.values())
                    {
                        points.add(new Point("lb", SERVER_POOLS[0], 0.05, t, DEFAULT_BATCH, kind, percent / 100.0));
                    }
                }
            }
            case STALE_READS ->
            {
                // the two variants share traffic and oracle (the oracle ignores the hint), so they interleave
                for (final int servers : new int[] {SERVER_POOLS[0], SERVER_POOLS[2]})
                {
                    for (final double ratio : STALE_READS_RATIOS)
                    {
                        points.add(new Point("lb", servers, ratio, t, DEFAULT_BATCH, ExecutorKind.TRANSNFV));
                        points.add(new Point(LB_STALE, servers, ratio, t, DEFAULT_BATCH, ExecutorKind.TRANSNFV));
                    }
                }
            }
            case TENANTS ->
            {
                for (final String variant : TENANT_VARIANTS)
                {
                    for (final ExecutorKind kind : ExecutorKind.values())
                    {
                        points.add(new Point(variant, SERVER_POOLS[2], 0.05, t, DEFAULT_BATCH, kind));
                    }
                }
            }
            default -> throw new IllegalStateException(label);
        }
        return points;
    }

    /**
     * @return the chain of {@code point}: its pool, d = 5, its punctuation (by transactions
     *         only: the packet-time interval is set far away so that the size is the knob).
     */
    static ChainSpec chainOf(final Point point, final ExperimentSettings experiment)
    {
        final ChainLoader loader = new ChainLoader();
        final ChainSpec chain;
        if (point.tenants())
        {
            final StringBuilder yaml = new StringBuilder("name: " + point.chain() + "\n"
                + "description: two steady tenants and a third that steps up, each a load balancer\ntenants:\n");
            for (int i = 0; i < TENANT_NAMES.size(); i++)
            {
                yaml.append(String.format(Locale.ROOT, "  - name: %s%n    match: { vlan: %d }%n    chain: lb%n"
                    + "    params: { lb: { servers: %d, candidates: %d, candidate_skew: %s } }%n",
                    TENANT_NAMES.get(i), tenantVlan(i), point.servers(), CANDIDATES, CANDIDATE_SKEW));
                if (i == TENANT_NAMES.size() - 1 && point.chain().endsWith("-limited"))
                {
                    yaml.append(String.format(Locale.ROOT, "    limits: { pps: %d, burst: %d }%n", NOISY_LIMIT_FACTOR * TENANT_RATE_PPS, NOISY_BURST));
                }
            }
            chain = loader.parse(yaml.toString(), "experiment " + point.chain());
        }
        else if (point.loadBalancerAlone())
        {
            chain = loader.parse(String.format(Locale.ROOT, """
                name: %s
                description: the load balancer alone, as in the paper's Fig. 3
                vnfs:
                  - name: lb
                    type: load-balancer
                    params: { servers: %d, candidates: %d, candidate_skew: %s, server_net: 100.64.0.0/10, idle_timeout: 60s }
                """, point.chain(), point.servers(), CANDIDATES, CANDIDATE_SKEW)
                + (point.chain().equals(LB_STALE) ? """
                    tables:
                      active: { consistency: { stale-reads: 1 } }
                """ : ""), "experiment " + point.chain());
        }
        else
        {
            chain = loader.loadBundled(point.chain());
        }
        final RunSettings settings = chain.settings()
            .withPunctuation(point.batchTxns(), 10_000_000_000L)
            .withExecutorThreads(point.threads())
            .withLatencyTarget(experiment.engineLatencyTargetNs());
        return chain.withSettings(settings);
    }

    /** @return the VLAN of the tenants experiment's tenant {@code i}. */
    static int tenantVlan(final int i)
    {
        return 10 * (i + 1);
    }

    /** @return the generator settings of {@code point}'s traffic, {@code packets} long. */
    static GeneratorConfig trafficOf(final Point point, final int packets)
    {
        if (point.tenants())
        {
            // one stream per tenant, its VLAN and its clients; the third at its variant's rate
            final GeneratorConfig.Builder mix = GeneratorConfig.builder().packets(packets);
            for (int i = 0; i < TENANT_NAMES.size(); i++)
            {
                final boolean noisy = i == TENANT_NAMES.size() - 1 && !point.chain().equals(TENANT_VARIANTS.get(0));
                mix.stream(i).packets(packets).newConnRatio(point.newConnRatio()).hostSkew(SKEW).serverSkew(SKEW).minSize(64)
                    .maxSize(128).seed(42).hosts(1000).flows(100_000).tcpRatio(1.0).servers(point.servers())
                    .vlan(tenantVlan(i)).clientBase(GeneratorConfig.DEFAULT_CLIENT_BASE + ((i + 1) << 16))
                    .ratePps((long)TENANT_RATE_PPS * (noisy ? NOISY_FACTOR : 1));
            }
            return mix.build();
        }
        final GeneratorConfig.Builder traffic = GeneratorConfig.builder()
            .packets(packets)
            .newConnRatio(point.newConnRatio())
            .hostSkew(SKEW)
            .serverSkew(SKEW)
            .minSize(64)
            .maxSize(128)
            .seed(42)
            .hosts(1000);
        if (point.loadBalancerAlone())
        {
            traffic.flows(100_000).tcpRatio(1.0).servers(point.servers());
        }
        else
        {
            traffic.flows(10_000).tcpRatio(0.9).dstPorts(80, 80, 80, 443, 443, 443, 53, 53, 22, 21, 6667);
        }
        return traffic.build();
    }
}
