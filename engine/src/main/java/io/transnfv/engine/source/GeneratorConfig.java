package io.transnfv.engine.source;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The synthetic traffic generator's settings: one home for each parameter's name,
 * default and meaning (see {@code docs/packets.md} for the table).
 *
 * <p>Immutable and thread-safe. Built from {@code k=v,k=v} text ({@link #parse(String)}) or
 * a map ({@link #fromMap(Map)}); an unknown key or a bad value throws
 * {@link IllegalArgumentException} naming the key and what is allowed.
 */
public final class GeneratorConfig
{
    /** Parameter names, in the order {@link #describe()} prints them. */
    public static final List<String> KEYS = List.of(
        "packets", "flows", "new_conn_ratio", "tcp_ratio", "hosts", "servers", "host_skew", "server_skew",
        "min_size", "max_size", "dst_ports", "fin_ratio", "rate_pps", "start_ns", "seed");

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

    private GeneratorConfig(final Map<String, String> values)
    {
        packets = longValue(values, "packets", 1, Long.MAX_VALUE);
        flows = (int)longValue(values, "flows", 1, 1 << 24);
        newConnRatio = ratio(values, "new_conn_ratio", false);
        tcpRatio = ratio(values, "tcp_ratio", true);
        hosts = (int)longValue(values, "hosts", 1, MAX_HOSTS);
        servers = (int)longValue(values, "servers", 1, MAX_SERVERS);
        hostSkew = skew(values, "host_skew");
        serverSkew = skew(values, "server_skew");
        minSize = (int)longValue(values, "min_size", MIN_FRAME, MAX_FRAME);
        maxSize = (int)longValue(values, "max_size", MIN_FRAME, MAX_FRAME);
        if (maxSize < minSize)
        {
            throw new IllegalArgumentException("generator parameter 'max_size' (" + maxSize +
                ") must be >= 'min_size' (" + minSize + ")");
        }
        dstPorts = ports(values.get("dst_ports"));
        finRatio = ratio(values, "fin_ratio", true);
        ratePps = longValue(values, "rate_pps", 1, 1_000_000_000L);
        startNs = longValue(values, "start_ns", 0, Long.MAX_VALUE / 2);
        seed = longValue(values, "seed", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static Map<String, String> defaultValues()
    {
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("packets", "1000000");
        values.put("flows", "10000");
        values.put("new_conn_ratio", "0.05");
        values.put("tcp_ratio", "0.9");
        values.put("hosts", "1000");
        values.put("servers", "64");
        values.put("host_skew", "0");
        values.put("server_skew", "0");
        values.put("min_size", "64");
        values.put("max_size", "1500");
        values.put("dst_ports", "80,443,22,21,6667,53");
        values.put("fin_ratio", "0.9");
        values.put("rate_pps", "1000000");
        values.put("start_ns", "1700000000000000000");
        values.put("seed", "42");
        return values;
    }

    /** @return the defaults. */
    public static GeneratorConfig defaults()
    {
        return new GeneratorConfig(defaultValues());
    }

    /**
     * Parse {@code k=v,k=v}. Because {@code dst_ports} is itself comma-separated, an item
     * without {@code =} continues the previous value: {@code dst_ports=80,443,seed=7}.
     *
     * @param spec the text; blank means the defaults.
     * @return the configuration.
     * @throws IllegalArgumentException naming the key and the allowed values.
     */
    public static GeneratorConfig parse(final String spec)
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
            if (equals < 0)
            {
                if (lastKey == null)
                {
                    throw new IllegalArgumentException("generator spec item '" + item + "' is not key=value; valid keys: " +
                        String.join(", ", KEYS));
                }
                values.put(lastKey, values.get(lastKey) + "," + item);
                continue;
            }
            lastKey = item.substring(0, equals).trim();
            values.put(lastKey, item.substring(equals + 1).trim());
        }
        return fromMap(values);
    }

    /**
     * Build from a map of parameter names to values; missing keys take their defaults.
     *
     * @param overrides parameter values as text.
     * @return the configuration.
     * @throws IllegalArgumentException naming the key and the allowed values.
     */
    public static GeneratorConfig fromMap(final Map<String, String> overrides)
    {
        final Map<String, String> values = defaultValues();
        for (final Map.Entry<String, String> entry : overrides.entrySet())
        {
            if (!values.containsKey(entry.getKey()))
            {
                throw new IllegalArgumentException("unknown generator parameter '" + entry.getKey() + "'; valid keys: " +
                    String.join(", ", KEYS));
            }
            values.put(entry.getKey(), entry.getValue());
        }
        return new GeneratorConfig(values);
    }

    private static long longValue(final Map<String, String> values, final String key, final long min, final long max)
    {
        final String text = values.get(key).replace("_", "");
        final long value;
        try
        {
            value = Long.parseLong(text);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("generator parameter '" + key + "': expected an integer in " + min + ".." +
                max + ", got '" + values.get(key) + "'", e);
        }
        if (value < min || value > max)
        {
            throw new IllegalArgumentException("generator parameter '" + key + "': expected an integer in " + min + ".." +
                max + ", got " + value);
        }
        return value;
    }

    private static double doubleValue(final Map<String, String> values, final String key, final String allowed)
    {
        try
        {
            final double value = Double.parseDouble(values.get(key));
            if (Double.isFinite(value))
            {
                return value;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // reported below with the allowed range
        }
        throw new IllegalArgumentException("generator parameter '" + key + "': expected " + allowed + ", got '" +
            values.get(key) + "'");
    }

    private static double ratio(final Map<String, String> values, final String key, final boolean zeroAllowed)
    {
        final String allowed = zeroAllowed ? "a number in [0, 1]" : "a number in (0, 1]";
        final double value = doubleValue(values, key, allowed);
        if (value > 1 || value < 0 || (!zeroAllowed && value == 0))
        {
            throw new IllegalArgumentException("generator parameter '" + key + "': expected " + allowed + ", got " + value);
        }
        return value;
    }

    private static double skew(final Map<String, String> values, final String key)
    {
        final String allowed = "a Zipf exponent in [0, 10] (0 = uniform)";
        final double value = doubleValue(values, key, allowed);
        if (value < 0 || value > 10)
        {
            throw new IllegalArgumentException("generator parameter '" + key + "': expected " + allowed + ", got " + value);
        }
        return value;
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
                throw new IllegalArgumentException("generator parameter 'dst_ports': expected a comma-separated list of " +
                    "ports 1-65535, got '" + text + "'");
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

    /** @return number of client hosts, numbered from 10.0.0.1. */
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

    /** @return every parameter as {@code k=v,...}, in a form {@link #parse(String)} accepts. */
    public String describe()
    {
        return "packets=" + packets + ",flows=" + flows + ",new_conn_ratio=" + newConnRatio + ",tcp_ratio=" + tcpRatio +
            ",hosts=" + hosts + ",servers=" + servers + ",host_skew=" + hostSkew + ",server_skew=" + serverSkew +
            ",min_size=" + minSize + ",max_size=" + maxSize + ",dst_ports=" +
            Arrays.stream(dstPorts).mapToObj(Integer::toString).collect(Collectors.joining(",")) +
            ",fin_ratio=" + finRatio + ",rate_pps=" + ratePps + ",start_ns=" + startNs + ",seed=" + seed;
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
