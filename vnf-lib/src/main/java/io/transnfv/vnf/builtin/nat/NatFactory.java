package io.transnfv.vnf.builtin.nat;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.Ipv4;

import java.util.List;

/** Creates {@code nat} instances ({@link Nat}). Stateless; any thread may call it. */
public final class NatFactory implements VnfFactory
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MS_NS = 1_000_000L;
    private static final String DEFAULT_EXTERNAL_IP = "203.0.113.1";

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("internal_net", ParamKind.STRING, "10.0.0.0/8",
            "CIDR prefix of the inside network; its sources are translated"),
        ParamSpec.optional("external_ip", ParamKind.STRING, DEFAULT_EXTERNAL_IP,
            "the public IPv4 address inside endpoints are translated to (one address; see external_ips)"),
        ParamSpec.optional("external_ips", ParamKind.STRING, "",
            "a prefix of public IPv4 addresses, e.g. 203.0.113.0/28 (/24 or longer), used instead of external_ip: "
                + "the pool is pool_size ports on every address of it"),
        ParamSpec.optional("port_base", ParamKind.INT, 1024, "first external port of the pool").range(1, 65535),
        ParamSpec.optional("pool_size", ParamKind.INT, 4096, "number of external ports in the pool").range(1, 64512),
        ParamSpec.optional("probes", ParamKind.INT, 8,
            "candidate ports tried per allocation (the whole pool when pool_size <= probes)").range(1, 64),
        ParamSpec.optional("idle_timeout", ParamKind.DURATION, 60 * SECOND_NS,
            "a mapping idle longer than this is removed and its port freed").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("expiry_interval", ParamKind.DURATION, SECOND_NS,
            "how often, in packet time, idle mappings are swept").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("ipv6", ParamKind.STRING, "pass",
            "what the NAT44 does with IPv6 packets, which it never translates: pass (forward unchanged) or drop "
                + "(drop reason ipv6)"));

    @Override
    public String type()
    {
        return "nat";
    }

    @Override
    public String description()
    {
        return "Endpoint-independent NAT44: outbound TCP/UDP from internal_net gets its source rewritten to "
            + "external_ip (or an address of the prefix external_ips) and a port from a shared pool of addresses x "
            + "ports, one per internal endpoint; inbound packets to a mapped address and port are rewritten back. "
            + "A new endpoint finds no free port among its candidates: the transaction aborts and the packet is dropped as pool-exhausted. Mappings end on FIN/RST or "
            + "after idle_timeout. IPv6 is not translated: parameter ipv6 passes (default) or drops it.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final Cidr internalNet = cidr(config, "internal_net");
        final Cidr external = externalAddresses(config, internalNet);
        final int externalIp = external.network();
        final int externalCount = (int)external.size();
        final int portBase = config.getInt("port_base");
        final int poolSize = config.getInt("pool_size");
        if (portBase + poolSize - 1 > 65535)
        {
            throw new VnfConfigException("pool_size", "pool_size " + poolSize + " from port_base " + portBase
                + " runs past port 65535; write pool_size <= " + (65536 - portBase) + " or lower port_base");
        }
        final String ipv6 = config.getString("ipv6");
        if (!ipv6.equals("pass") && !ipv6.equals("drop"))
        {
            throw new VnfConfigException("ipv6", "ipv6 '" + ipv6 + "' is not a mode: write pass or drop");
        }
        return new Nat(internalNet, externalIp, externalCount, portBase, poolSize, config.getInt("probes"),
            config.getDurationNs("idle_timeout"), config.getDurationNs("expiry_interval"), ipv6.equals("drop"));
    }

    private static Cidr externalAddresses(final VnfConfig config, final Cidr internalNet)
    {
        final String prefix = config.getString("external_ips");
        if (prefix.isEmpty())
        {
            final int externalIp;
            try
            {
                externalIp = Ipv4.parse(config.getString("external_ip"));
            }
            catch (final IllegalArgumentException e)
            {
                throw new VnfConfigException("external_ip", "external_ip: " + e.getMessage()
                    + "; write a dotted IPv4 address such as 203.0.113.1");
            }
            if (internalNet.contains(externalIp))
            {
                throw new VnfConfigException("external_ip", "external_ip " + config.getString("external_ip")
                    + " lies inside internal_net " + internalNet + "; use a public address outside it");
            }
            return Cidr.of(externalIp, 32);
        }
        if (!config.getString("external_ip").equals(DEFAULT_EXTERNAL_IP))
        {
            throw new VnfConfigException("external_ips", "external_ip and external_ips both name the external "
                + "addresses; write only external_ips (a single address is a /32 prefix)");
        }
        final Cidr external = cidr(config, "external_ips");
        if (external.size() > Nat.MAX_EXTERNAL_ADDRESSES)
        {
            throw new VnfConfigException("external_ips", "external_ips " + external + " holds " + external.size()
                + " addresses, more than the NAT's " + Nat.MAX_EXTERNAL_ADDRESSES + "; write a prefix of /24 or longer");
        }
        final int last = external.network() + (int)external.size() - 1;
        if (internalNet.contains(external.network()) || internalNet.contains(last)
            || external.contains(internalNet.network()))
        {
            throw new VnfConfigException("external_ips", "external_ips " + external + " overlaps internal_net "
                + internalNet + "; use public addresses outside it");
        }
        return external;
    }

    static Cidr cidr(final VnfConfig config, final String param)
    {
        try
        {
            return Cidr.parse(config.getString(param));
        }
        catch (final IllegalArgumentException e)
        {
            throw new VnfConfigException(param, param + ": " + e.getMessage() + "; write a prefix such as 10.0.0.0/8");
        }
    }
}
