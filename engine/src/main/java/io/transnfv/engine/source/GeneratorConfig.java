package io.transnfv.engine.source;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The synthetic traffic generator's settings: one home for each parameter's name,
 * default and meaning (see {@code docs/packets.md} for the table).
 *
 * <p>Immutable and thread-safe. Built by a {@link Builder}, which checks each value as it is
 * set (from {@code k=v,k=v} text, the chain's YAML or a map) so the settings are parsed
 * once, where they are written; an unknown key or a bad value throws a
 * {@link ParameterException} naming the key and what is allowed.
 */
public final class GeneratorConfig
{
    /** Parameter names, in the order {@link #describe()} prints them. */
    public static final List<String> KEYS = List.of(
        "packets", "flows", "new_conn_ratio", "tcp_ratio", "hosts", "servers", "host_skew", "server_skew",
        "min_size", "max_size", "dst_ports", "fin_ratio", "rate_pps", "start_ns", "seed", "client_base", "vlan", "dscp");

    /** The parameters {@link #describe()} writes only when they differ from their defaults (older descriptions lack them). */
    public static final List<String> OPTIONAL_KEYS = List.of("client_base", "vlan", "dscp");

    /** The prefix of a stream's parameter in {@code k=v} text: {@code stream.<i>.<key>=<value>}. */
    public static final String STREAM_PREFIX = "stream.";
    /** Most streams one generator merges. */
    public static final int MAX_STREAMS = 64;
    /** The first client address by default: 10.0.0.1. */
    public static final int DEFAULT_CLIENT_BASE = 0x0A000001;

    /** Smallest frame: an Ethernet frame without FCS. */
    public static final int MIN_FRAME = 60;
    /** Largest frame: a 9000-byte jumbo MTU plus the Ethernet header. */
    public static final int MAX_FRAME = 9014;
    /** Most client hosts: the usable addresses of 10.0.0.0/8. */
    public static final int MAX_HOSTS = (1 << 24) - 2;
    /** Most servers: the usable addresses of 172.16.0.0/12. */
    public static final int MAX_SERVERS = (1 << 20) - 2;

    private final long packets;
    private final int flows;
    private final double newConnRatio;
    private final double tcpRatio;
    private final int hosts;
    private final int servers;
    private final double hostSkew;
    private final double serverSkew;
    private final int minSize;
    private final int maxSize;
    private final int[] dstPorts;
    private final double finRatio;
    private final long ratePps;
    private final long startNs;
    private final long seed;
    private final int clientBase;
    private final int vlan;
    private final int dscp;
    private final List<GeneratorConfig> streams;

    private GeneratorConfig(final Builder b, final List<GeneratorConfig> streams)
    {
        packets = b.packets;
        flows = b.flows;
        newConnRatio = b.newConnRatio;
        tcpRatio = b.tcpRatio;
        hosts = b.hosts;
        servers = b.servers;
        hostSkew = b.hostSkew;
        serverSkew = b.serverSkew;
        minSize = b.minSize;
        maxSize = b.maxSize;
        dstPorts = b.dstPorts.clone();
        finRatio = b.finRatio;
        ratePps = b.ratePps;
        startNs = b.startNs;
        seed = b.seed;
        clientBase = b.clientBase;
        vlan = b.vlan;
        dscp = b.dscp;
        this.streams = List.copyOf(streams);
    }

    /** @return the defaults. */
    public static GeneratorConfig defaults()
    {
        return builder().build();
    }

    /** @return a builder holding the defaults. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** @return a builder holding this configuration, to change some parameters of it. */
    public Builder toBuilder()
    {
        final Builder b = new Builder();
        b.packets = packets;
        b.flows = flows;
        b.newConnRatio = newConnRatio;
        b.tcpRatio = tcpRatio;
        b.hosts = hosts;
        b.servers = servers;
        b.hostSkew = hostSkew;
        b.serverSkew = serverSkew;
        b.minSize = minSize;
        b.maxSize = maxSize;
        b.dstPorts = dstPorts.clone();
        b.finRatio = finRatio;
        b.ratePps = ratePps;
        b.startNs = startNs;
        b.seed = seed;
        b.clientBase = clientBase;
        b.vlan = vlan;
        b.dscp = dscp;
        for (int i = 0; i < streams.size(); i++)
        {
            b.streams.put(i, streams.get(i).toBuilder());
        }
        return b;
    }

    /**
     * Parse {@code k=v,k=v} over the defaults; see {@link Builder#parse(String, UnaryOperator)}.
     *
     * @param spec the text; blank means the defaults.
     * @return the configuration.
     * @throws IllegalArgumentException naming the key and the allowed values.
     */
    public static GeneratorConfig parse(final String spec)
    {
        return builder().parse(spec, item -> "generator spec item '" + item + "' is not key=value; valid keys: " +
            String.join(", ", KEYS)).build();
    }

    /**
     * A bad generator parameter: its message names the parameter and what is allowed;
     * {@link #parameters()} names the parameters at fault, the one to point at first.
     */
    public static final class ParameterException extends IllegalArgumentException
    {
        private static final long serialVersionUID = 1L;

        private final transient List<String> parameters;

        ParameterException(final List<String> parameters, final String message, final Throwable cause)
        {
            super(message, cause);
            this.parameters = List.copyOf(parameters);
        }

        /** @return the parameters at fault, by name; the first is the one to point at. */
        public List<String> parameters()
        {
            return parameters;
        }
    }

    /**
     * Collects parameters over the defaults, checking each value as it is set; {@link #build()}
     * checks what involves several (the frame size range). Not thread-safe; setup only.
     */
    public static final class Builder
    {
        private long packets = 1_000_000;
        private int flows = 10_000;
        private double newConnRatio = 0.05;
        private double tcpRatio = 0.9;
        private int hosts = 1000;
        private int servers = 64;
        private double hostSkew;
        private double serverSkew;
        private int minSize = 64;
        private int maxSize = 1500;
        private int[] dstPorts = {80, 443, 22, 21, 6667, 53};
        private double finRatio = 0.9;
        private long ratePps = 1_000_000;
        private long startNs = 1_700_000_000_000_000_000L;
        private long seed = 42;
        private int clientBase = DEFAULT_CLIENT_BASE;
        private int vlan;
        private int dscp;
        private final TreeMap<Integer, Builder> streams = new TreeMap<>();

        private Builder()
        {
        }

        /**
         * Sets one parameter from its text, e.g. {@code ("dst_ports", "80,443")}.
         *
         * @return this builder.
         * @throws ParameterException for an unknown key or a value out of its range.
         */
        public Builder set(final String key, final String value)
        {
            if (key.startsWith(STREAM_PREFIX))
            {
                final int dot = key.indexOf('.', STREAM_PREFIX.length());
                final String index = dot < 0 ? "" : key.substring(STREAM_PREFIX.length(), dot);
                if (dot < 0 || !index.matches("[0-9]{1,2}") || Integer.parseInt(index) >= MAX_STREAMS)
                {
                    throw new ParameterException(List.of(key), "generator parameter '" + key + "': a stream's parameter is written "
                        + "stream.<i>.<key>, with <i> from 0 to " + (MAX_STREAMS - 1), null);
                }
                final String streamKey = key.substring(dot + 1);
                if (streamKey.startsWith(STREAM_PREFIX))
                {
                    throw new ParameterException(List.of(key), "generator parameter '" + key + "': a stream has no streams of its own",
                        null);
                }
                stream(Integer.parseInt(index)).set(streamKey, value);
                return this;
            }
            switch (key)
            {
                case "packets" -> packets(longValue(key, value));
                case "flows" -> flows(longValue(key, value));
                case "new_conn_ratio" -> newConnRatio(doubleValue(key, value, ratioRange(false)));
                case "tcp_ratio" -> tcpRatio(doubleValue(key, value, ratioRange(true)));
                case "hosts" -> hosts(longValue(key, value));
                case "servers" -> servers(longValue(key, value));
                case "host_skew" -> hostSkew(doubleValue(key, value, SKEW_RANGE));
                case "server_skew" -> serverSkew(doubleValue(key, value, SKEW_RANGE));
                case "min_size" -> minSize(longValue(key, value));
                case "max_size" -> maxSize(longValue(key, value));
                case "dst_ports" -> dstPorts(ports(value));
                case "fin_ratio" -> finRatio(doubleValue(key, value, ratioRange(true)));
                case "rate_pps" -> ratePps(longValue(key, value));
                case "start_ns" -> startNs(longValue(key, value));
                case "seed" -> seed(longValue(key, value));
                case "client_base" -> clientBase(ipv4(value));
                case "vlan" -> vlan((int)longValue(key, value));
                case "dscp" -> dscp((int)longValue(key, value));
                default -> throw new ParameterException(List.of(key), "unknown generator parameter '" + key +
                    "'; valid keys: " + String.join(", ", KEYS), null);
            }
            return this;
        }

        /** @return this builder, generating {@code value} packets (at least 1). */
        public Builder packets(final long value)
        {
            packets = inRange("packets", value);
            return this;
        }

        /** @return this builder, with at most {@code value} connections open at once (1 to 2^24). */
        public Builder flows(final long value)
        {
            flows = (int)inRange("flows", value);
            return this;
        }

        /** @return this builder, with this fraction of packets opening a connection, in (0, 1]. */
        public Builder newConnRatio(final double value)
        {
            newConnRatio = ratio("new_conn_ratio", value, false);
            return this;
        }

        /** @return this builder, with this fraction of connections TCP (the rest UDP), in [0, 1]. */
        public Builder tcpRatio(final double value)
        {
            tcpRatio = ratio("tcp_ratio", value, true);
            return this;
        }

        /** @return this builder, with {@code value} client hosts. */
        public Builder hosts(final long value)
        {
            hosts = (int)inRange("hosts", value);
            return this;
        }

        /** @return this builder, with {@code value} servers. */
        public Builder servers(final long value)
        {
            servers = (int)inRange("servers", value);
            return this;
        }

        /** @return this builder, with this Zipf exponent of client popularity, in [0, 10]. */
        public Builder hostSkew(final double value)
        {
            hostSkew = skew("host_skew", value);
            return this;
        }

        /** @return this builder, with this Zipf exponent of server popularity, in [0, 10]. */
        public Builder serverSkew(final double value)
        {
            serverSkew = skew("server_skew", value);
            return this;
        }

        /** @return this builder, with frames of at least {@code value} bytes. */
        public Builder minSize(final long value)
        {
            minSize = (int)inRange("min_size", value);
            return this;
        }

        /** @return this builder, with frames of at most {@code value} bytes. */
        public Builder maxSize(final long value)
        {
            maxSize = (int)inRange("max_size", value);
            return this;
        }

        /** @return this builder, with new connections' destination ports drawn from {@code ports}. */
        public Builder dstPorts(final int... ports)
        {
            for (final int port : ports)
            {
                if (port < 1 || port > 65535)
                {
                    throw new ParameterException(List.of("dst_ports"), "generator parameter 'dst_ports': expected a "
                        + "comma-separated list of ports 1-65535, got " + Arrays.toString(ports), null);
                }
            }
            dstPorts = ports.clone();
            return this;
        }

        /** @return this builder, with this fraction of TCP connections closed by FIN, in [0, 1]. */
        public Builder finRatio(final double value)
        {
            finRatio = ratio("fin_ratio", value, true);
            return this;
        }

        /** @return this builder, with packet timestamps {@code 1 / value} seconds apart. */
        public Builder ratePps(final long value)
        {
            ratePps = inRange("rate_pps", value);
            return this;
        }

        /** @return this builder, with the first packet's timestamp at {@code value} ns. */
        public Builder startNs(final long value)
        {
            startNs = inRange("start_ns", value);
            return this;
        }

        /**
         * Sets the parameters of {@code k=v,k=v} text. Because {@code dst_ports} is itself
         * comma-separated, an item without {@code =} after it continues its list:
         * {@code dst_ports=80,443,seed=7}. Blank items are skipped.
         *
         * @param spec        the text.
         * @param notKeyValue the message for any other item without {@code =}, given the item
         *                    (the caller names the syntax the user wrote).
         * @return this builder.
         * @throws IllegalArgumentException for an item that is not {@code key=value}, an unknown
         *                                  key or a bad value.
         */
        public Builder parse(final String spec, final UnaryOperator<String> notKeyValue)
        {
            final Map<String, String> values = new LinkedHashMap<>();
            String lastKey = null;
            for (final String rawItem : spec.split(","))
            {
                final String item = rawItem.trim();
                if (item.isEmpty())
                {
                    continue;
                }
                final int equals = item.indexOf('=');
                if (equals > 0)
                {
                    lastKey = item.substring(0, equals).trim();
                    values.put(lastKey, item.substring(equals + 1).trim());
                }
                else if (equals < 0 && lastKey != null && (lastKey.equals("dst_ports") || lastKey.endsWith(".dst_ports")))
                {
                    values.put(lastKey, values.get(lastKey) + "," + item);
                }
                else
                {
                    throw new IllegalArgumentException(notKeyValue.apply(item));
                }
            }
            values.forEach(this::set);
            return this;
        }

        /**
         * @return the builder of stream {@code index} (0 to {@link #MAX_STREAMS} - 1), made with the
         *         defaults if it is new: the generator then merges its streams (see {@link #streams()}).
         */
        public Builder stream(final int index)
        {
            if (index < 0 || index >= MAX_STREAMS)
            {
                throw new ParameterException(List.of("streams"), "generator streams: at most " + MAX_STREAMS + ", got stream " + index,
                    null);
            }
            return streams.computeIfAbsent(index, i -> new Builder());
        }

        /** @return this builder, its clients numbered from {@code address} (a big-endian IPv4 address, not 0). */
        public Builder clientBase(final int address)
        {
            if (address == 0)
            {
                throw new ParameterException(List.of("client_base"), "generator parameter 'client_base': expected an IPv4 address"
                    + " other than 0.0.0.0", null);
            }
            clientBase = address;
            return this;
        }

        /** @return this builder, every frame tagged with VLAN {@code value} (1 to 4094), or untagged for 0. */
        public Builder vlan(final int value)
        {
            vlan = (int)inRange("vlan", value);
            return this;
        }

        /** @return this builder, every packet's DSCP {@code value} (0 to 63). */
        public Builder dscp(final int value)
        {
            dscp = (int)inRange("dscp", value);
            return this;
        }

        /** @return this builder, with another random seed. */
        public Builder seed(final long newSeed)
        {
            seed = newSeed;
            return this;
        }

        /**
         * @return the configuration.
         * @throws ParameterException if {@code max_size} is below {@code min_size}.
         */
        public GeneratorConfig build()
        {
            if (maxSize < minSize)
            {
                throw new ParameterException(List.of("min_size", "max_size"), "generator parameter 'max_size' (" + maxSize +
                    ") must be >= 'min_size' (" + minSize + ")", null);
            }
            if ((clientBase & 0xFFFF_FFFFL) + hosts - 1 > 0xFFFF_FFFFL)
            {
                throw new ParameterException(List.of("client_base", "hosts"), "generator parameters 'client_base' and 'hosts': "
                    + hosts + " hosts from " + ipv4Text(clientBase) + " run past 255.255.255.255", null);
            }
            final List<GeneratorConfig> built = new ArrayList<>(streams.size());
            int expected = 0;
            for (final Map.Entry<Integer, Builder> stream : streams.entrySet())
            {
                if (stream.getKey() != expected)
                {
                    throw new ParameterException(List.of("streams"), "generator streams are numbered from 0 without gaps: stream "
                        + expected + " is missing", null);
                }
                try
                {
                    built.add(stream.getValue().build());
                }
                catch (final ParameterException e)
                {
                    throw new ParameterException(List.of("streams"), "stream " + expected + ": " + e.getMessage(), e);
                }
                expected++;
            }
            return new GeneratorConfig(this, built);
        }
    }

    private static final String SKEW_RANGE = "a Zipf exponent in [0, 10] (0 = uniform)";
    /** The integer parameters' ranges, {min, max}. */
    private static final Map<String, long[]> LONG_RANGES = Map.ofEntries(
        Map.entry("packets", new long[] {1, Long.MAX_VALUE}),
        Map.entry("flows", new long[] {1, 1 << 24}),
        Map.entry("hosts", new long[] {1, MAX_HOSTS}),
        Map.entry("servers", new long[] {1, MAX_SERVERS}),
        Map.entry("min_size", new long[] {MIN_FRAME, MAX_FRAME}),
        Map.entry("max_size", new long[] {MIN_FRAME, MAX_FRAME}),
        Map.entry("rate_pps", new long[] {1, 1_000_000_000L}),
        Map.entry("start_ns", new long[] {0, Long.MAX_VALUE / 2}),
        Map.entry("seed", new long[] {Long.MIN_VALUE, Long.MAX_VALUE}),
        Map.entry("vlan", new long[] {0, 4094}),
        Map.entry("dscp", new long[] {0, 63}));

    private static String ratioRange(final boolean zeroAllowed)
    {
        return zeroAllowed ? "a number in [0, 1]" : "a number in (0, 1]";
    }

    private static long longValue(final String key, final String text)
    {
        try
        {
            return Long.parseLong(text.replace("_", ""));
        }
        catch (final NumberFormatException e)
        {
            final long[] range = LONG_RANGES.get(key);
            throw new ParameterException(List.of(key), "generator parameter '" + key + "': expected an integer in " + range[0] +
                ".." + range[1] + ", got '" + text + "'", e);
        }
    }

    private static long inRange(final String key, final long value)
    {
        final long[] range = LONG_RANGES.get(key);
        if (value < range[0] || value > range[1])
        {
            throw new ParameterException(List.of(key), "generator parameter '" + key + "': expected an integer in " + range[0] +
                ".." + range[1] + ", got " + value, null);
        }
        return value;
    }

    private static double doubleValue(final String key, final String text, final String allowed)
    {
        try
        {
            final double value = Double.parseDouble(text);
            if (Double.isFinite(value))
            {
                return value;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // reported below with the allowed range
        }
        throw new ParameterException(List.of(key), "generator parameter '" + key + "': expected " + allowed + ", got '" +
            text + "'", null);
    }

    private static double ratio(final String key, final double value, final boolean zeroAllowed)
    {
        if (!(value <= 1 && value >= 0) || (!zeroAllowed && value == 0))
        {
            throw new ParameterException(List.of(key), "generator parameter '" + key + "': expected " + ratioRange(zeroAllowed)
                + ", got " + value, null);
        }
        return value;
    }

    private static double skew(final String key, final double value)
    {
        if (!(value >= 0 && value <= 10))
        {
            throw new ParameterException(List.of(key), "generator parameter '" + key + "': expected " + SKEW_RANGE + ", got " +
                value, null);
        }
        return value;
    }

    private static int ipv4(final String text)
    {
        final String[] parts = text.trim().split("\\.", -1);
        int address = 0;
        boolean ok = parts.length == 4;
        for (int i = 0; ok && i < 4; i++)
        {
            ok = parts[i].matches("[0-9]{1,3}") && Integer.parseInt(parts[i]) <= 255;
            address = ok ? address << 8 | Integer.parseInt(parts[i]) : 0;
        }
        if (!ok)
        {
            throw new ParameterException(List.of("client_base"), "generator parameter 'client_base': expected an IPv4 address such "
                + "as 10.1.0.1, got '" + text + "'", null);
        }
        return address;
    }

    private static String ipv4Text(final int address)
    {
        return (address >>> 24) + "." + (address >>> 16 & 0xFF) + "." + (address >>> 8 & 0xFF) + "." + (address & 0xFF);
    }

    private static int[] ports(final String text)
    {
        final String[] items = text.split(",");
        final int[] result = new int[items.length];
        for (int i = 0; i < items.length; i++)
        {
            try
            {
                result[i] = Integer.parseInt(items[i].trim());
            }
            catch (final NumberFormatException e)
            {
                result[i] = -1;
            }
            if (result[i] < 1 || result[i] > 65535)
            {
                throw new ParameterException(List.of("dst_ports"), "generator parameter 'dst_ports': expected a " +
                    "comma-separated list of ports 1-65535, got '" + text + "'", null);
            }
        }
        return result;
    }

    /** @return packets to generate. */
    public long packets()
    {
        return packets;
    }

    /** @return most connections open at once. */
    public int flows()
    {
        return flows;
    }

    /** @return fraction of packets that open a new connection. */
    public double newConnRatio()
    {
        return newConnRatio;
    }

    /** @return fraction of connections that are TCP; the rest are UDP. */
    public double tcpRatio()
    {
        return tcpRatio;
    }

    /** @return number of client hosts, numbered from {@link #clientBase()} (10.0.0.1 by default). */
    public int hosts()
    {
        return hosts;
    }

    /** @return number of servers, numbered from 172.16.0.1. */
    public int servers()
    {
        return servers;
    }

    /** @return Zipf exponent of client popularity (0 = uniform). */
    public double hostSkew()
    {
        return hostSkew;
    }

    /** @return Zipf exponent of server popularity (0 = uniform). */
    public double serverSkew()
    {
        return serverSkew;
    }

    /** @return smallest frame in bytes (without FCS). */
    public int minSize()
    {
        return minSize;
    }

    /** @return largest frame in bytes (without FCS). */
    public int maxSize()
    {
        return maxSize;
    }

    /** @return destination ports, one picked uniformly per connection; a copy. */
    public int[] dstPorts()
    {
        return dstPorts.clone();
    }

    /** @return probability that a TCP connection that ends by itself ends with FIN. */
    public double finRatio()
    {
        return finRatio;
    }

    /** @return packets per second of generated time. */
    public long ratePps()
    {
        return ratePps;
    }

    /** @return timestamp of the first packet, nanoseconds since the epoch. */
    public long startNs()
    {
        return startNs;
    }

    /** @return random seed. */
    public long seed()
    {
        return seed;
    }

    /** @return the first client address (big-endian IPv4); clients are numbered upwards from it. */
    public int clientBase()
    {
        return clientBase;
    }

    /** @return the VLAN every frame is tagged with, 0 for untagged. */
    public int vlan()
    {
        return vlan;
    }

    /** @return the DSCP of every packet. */
    public int dscp()
    {
        return dscp;
    }

    /**
     * @return the streams this generator merges, in order; empty for one stream of its own. A
     *         generator with streams yields their packets merged by timestamp (a tie goes to the
     *         lower stream), renumbered, until {@link #packets()} in all or every stream has ended;
     *         its own connection parameters are then unused.
     */
    public List<GeneratorConfig> streams()
    {
        return streams;
    }

    /** @return the largest frame the source yields: {@link #maxSize()}, or with streams the largest of theirs. */
    public int maxFrameSize()
    {
        return streams.isEmpty() ? maxSize : streams.stream().mapToInt(GeneratorConfig::maxSize).max().orElse(maxSize);
    }

    /** @return packets the source yields: {@link #packets()}, or with streams the fewer of it and theirs together. */
    public long totalPackets()
    {
        long sum = 0;
        for (final GeneratorConfig stream : streams)
        {
            sum = Math.min(Long.MAX_VALUE - stream.packets(), sum) + stream.packets();
        }
        return streams.isEmpty() ? packets : Math.min(packets, sum);
    }

    /** @return every parameter as {@code k=v,...}, in a form {@link #parse(String)} accepts. */
    public String describe()
    {
        final StringBuilder out = new StringBuilder(own());
        for (int i = 0; i < streams.size(); i++)
        {
            for (final String item : streams.get(i).own().split(",(?=[a-z_]+=)"))
            {
                out.append(',').append(STREAM_PREFIX).append(i).append('.').append(item);
            }
        }
        return out.toString();
    }

    /** @return this configuration's own parameters (not its streams') as {@code k=v,...}. */
    private String own()
    {
        return "packets=" + packets + ",flows=" + flows + ",new_conn_ratio=" + newConnRatio + ",tcp_ratio=" + tcpRatio +
            ",hosts=" + hosts + ",servers=" + servers + ",host_skew=" + hostSkew + ",server_skew=" + serverSkew +
            ",min_size=" + minSize + ",max_size=" + maxSize + ",dst_ports=" +
            Arrays.stream(dstPorts).mapToObj(Integer::toString).collect(Collectors.joining(",")) +
            ",fin_ratio=" + finRatio + ",rate_pps=" + ratePps + ",start_ns=" + startNs + ",seed=" + seed +
            (clientBase == DEFAULT_CLIENT_BASE ? "" : ",client_base=" + ipv4Text(clientBase)) + (vlan == 0 ? "" : ",vlan=" + vlan) +
            (dscp == 0 ? "" : ",dscp=" + dscp);
    }

    @Override
    public String toString()
    {
        return describe();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof GeneratorConfig && ((GeneratorConfig)other).describe().equals(describe());
    }

    @Override
    public int hashCode()
    {
        return describe().hashCode();
    }
}
