package io.transnfv.vnf.builtin.firewall;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.packet.Cidr;
import io.transnfv.vnf.packet.Ipv6Cidr;

import java.util.ArrayList;
import java.util.List;

/** Creates {@code firewall} instances ({@link Firewall}). Stateless; any thread may call it. */
public final class FirewallFactory implements VnfFactory
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MS_NS = 1_000_000L;

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("internal_net", ParamKind.STRING_LIST, List.of("10.0.0.0/8", "fc00::/7"),
            "CIDR prefixes of the protected network, IPv4 and IPv6; packets from them are outbound"),
        ParamSpec.optional("rules", ParamKind.STRING_LIST, List.of(),
            "first-match ACL rules: " + Acl.FORM).whileRunning(),
        ParamSpec.optional("default_action", ParamKind.STRING, "allow",
            "allow or deny: what happens to outbound packets no rule matched").whileRunning(),
        ParamSpec.optional("idle_timeout", ParamKind.DURATION, 120 * SECOND_NS,
            "a tracked connection idle longer than this is closed").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("expiry_interval", ParamKind.DURATION, SECOND_NS,
            "how often, in packet time, idle connections are swept").range(MS_NS, Double.MAX_VALUE));

    @Override
    public String type()
    {
        return "firewall";
    }

    @Override
    public String description()
    {
        return "Stateful IPv4 and IPv6 firewall: a first-match ACL drops denied packets (reason acl) without touching "
            + "state; allowed outbound packets open or refresh a tracked connection; inbound packets no rule "
            + "allowed pass only on a live connection opened from inside (else reason not-established); ICMP and "
            + "ICMPv6 errors pass inbound only when the packet they quote belongs to a live connection.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final List<String> prefixes = config.getStringList("internal_net");
        if (prefixes.isEmpty())
        {
            throw new VnfConfigException("internal_net",
                "internal_net is empty: write at least one prefix such as 10.0.0.0/8 or fd00::/8");
        }
        final List<Cidr> internalNet = new ArrayList<>();
        final List<Ipv6Cidr> internalNet6 = new ArrayList<>();
        for (int i = 0; i < prefixes.size(); i++)
        {
            final String prefix = prefixes.get(i);
            try
            {
                if (Ipv6Cidr.isIpv6(prefix))
                {
                    internalNet6.add(Ipv6Cidr.parse(prefix));
                }
                else
                {
                    internalNet.add(Cidr.parse(prefix));
                }
            }
            catch (final IllegalArgumentException e)
            {
                throw new VnfConfigException("internal_net", "internal_net[" + i + "]: " + e.getMessage()
                    + "; write a prefix such as 10.0.0.0/8 or fd00::/8");
            }
        }
        final boolean defaultAllow = defaultAllow(config);
        return new Firewall(internalNet.toArray(new Cidr[0]), internalNet6.toArray(new Ipv6Cidr[0]),
            Acl.parse(config.getStringList("rules"), "rules"),
            defaultAllow, config.getDurationNs("idle_timeout"), config.getDurationNs("expiry_interval"));
    }

    /** @return whether {@code default_action} is allow; at setup and for a live change. */
    static boolean defaultAllow(final VnfConfig config)
    {
        final String defaultAction = config.getString("default_action");
        if (!defaultAction.equals("allow") && !defaultAction.equals("deny"))
        {
            throw new VnfConfigException("default_action", "default_action '" + defaultAction + "': write allow or deny");
        }
        return defaultAction.equals("allow");
    }
}
