package io.transnfv.vnf.builtin.lb;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.Ipv6;
import io.transnfv.vnf.packet.Ipv6Cidr;

import java.util.List;

/** Creates {@code load-balancer} instances ({@link LoadBalancer}). Stateless; any thread may call it. */
public final class LoadBalancerFactory implements VnfFactory
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MS_NS = 1_000_000L;

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("servers", ParamKind.INT, 64, "number of backends").range(1, LoadBalancer.MAX_SERVERS),
        ParamSpec.optional("server_net", ParamKind.STRING, "192.168.0.0/16",
            "CIDR prefix of the backends; backend i has address prefix + i + 1"),
        ParamSpec.optional("server_net_v6", ParamKind.STRING, "fd00:0:0:1::/64",
            "IPv6 prefix of the backends, for IPv6 flows; backend i has address prefix + i + 1"),
        ParamSpec.optional("candidates", ParamKind.INT, 0,
            "d, candidate servers per connection; 0 = all servers when servers <= 16, else 5").range(0, 64).whileRunning(),
        ParamSpec.optional("candidate_skew", ParamKind.DOUBLE, 0.0,
            "Zipf exponent of the sampled candidates over server indices (0 = uniform; the paper uses 0.2)")
            .range(0, 10),
        ParamSpec.optional("vip", ParamKind.STRING, "any",
            "the virtual address balanced, IPv4 or IPv6 (only that family is balanced), or any to balance "
                + "every TCP/UDP packet of both"),
        ParamSpec.optional("idle_timeout", ParamKind.DURATION, 60 * SECOND_NS,
            "a connection idle longer than this is closed").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("expiry_interval", ParamKind.DURATION, SECOND_NS,
            "how often, in packet time, idle connections are swept").range(MS_NS, Double.MAX_VALUE));

    @Override
    public String type()
    {
        return "load-balancer";
    }

    @Override
    public String description()
    {
        return "Layer-4 load balancer for IPv4 and IPv6: a new TCP connection (SYN) or UDP flow goes to the least-loaded of d "
            + "candidate backends sampled from its 5-tuple (ties to the lowest index), later packets to the same "
            + "backend; the destination address is rewritten to the backend and the packet tagged with its index. "
            + "Per-server open connections and finished-connection bytes are kept as shared state.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final int servers = config.getInt("servers");
        final Cidr serverNet;
        try
        {
            serverNet = Cidr.parse(config.getString("server_net"));
        }
        catch (final IllegalArgumentException e)
        {
            throw new VnfConfigException("server_net", "server_net: " + e.getMessage()
                + "; write a prefix such as 192.168.0.0/16");
        }
        if (servers > serverNet.size() - 2)
        {
            throw new VnfConfigException("servers", servers + " servers do not fit in server_net " + serverNet
                + " (room for " + Math.max(0, serverNet.size() - 2) + "); write a larger server_net or fewer servers");
        }
        final Ipv6Cidr serverNet6;
        try
        {
            serverNet6 = Ipv6Cidr.parse(config.getString("server_net_v6"));
        }
        catch (final IllegalArgumentException e)
        {
            throw new VnfConfigException("server_net_v6", "server_net_v6: " + e.getMessage()
                + "; write an IPv6 prefix such as fd00:0:0:1::/64");
        }
        if (serverNet6.prefixLength() > 64 && servers > (1L << (128 - serverNet6.prefixLength())) - 2)
        {
            throw new VnfConfigException("servers", servers + " servers do not fit in server_net_v6 " + serverNet6
                + "; write a shorter prefix such as /64 or fewer servers");
        }
        final String vipText = config.getString("vip");
        final boolean anyVip = vipText.equalsIgnoreCase("any");
        Integer vip = null;
        long[] vip6 = null;
        if (!anyVip)
        {
            try
            {
                if (Ipv6Cidr.isIpv6(vipText))
                {
                    vip6 = Ipv6.parse(vipText);
                }
                else
                {
                    vip = Ipv4.parse(vipText);
                }
            }
            catch (final IllegalArgumentException e)
            {
                throw new VnfConfigException("vip", "vip: " + e.getMessage() + "; write an IPv4 or IPv6 address, or any");
            }
        }
        return new LoadBalancer(servers, serverNet.network(), serverNet6, config.getInt("candidates"),
            config.getDouble("candidate_skew"), anyVip, vip, vip6,
            config.getDurationNs("idle_timeout"), config.getDurationNs("expiry_interval"));
    }
}
