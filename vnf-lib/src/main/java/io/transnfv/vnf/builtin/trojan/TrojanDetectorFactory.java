package io.transnfv.vnf.builtin.trojan;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;

import java.util.List;

/** Creates {@code trojan-detector} instances ({@link TrojanDetector}). Stateless; any thread may call it. */
public final class TrojanDetectorFactory implements VnfFactory
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MS_NS = 1_000_000L;

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("pattern", ParamKind.INT_LIST, List.of(22, 21, 6667),
            "destination ports whose connections, in this order, make the alert").range(1, 65535),
        ParamSpec.optional("window", ParamKind.DURATION, 60 * SECOND_NS,
            "the whole pattern must happen within this time of its first event").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("expiry_interval", ParamKind.DURATION, SECOND_NS,
            "how often, in packet time, stale progress is swept").range(MS_NS, Double.MAX_VALUE));

    @Override
    public String type()
    {
        return "trojan-detector";
    }

    @Override
    public String description()
    {
        return "Detects a trojan's signature across a host's flows: connection-starting events (TCP SYN or UDP) "
            + "from one source host to the pattern's destination ports in order, within a window of the first "
            + "(by default SSH, then FTP, then IRC), raise alert trojan with the host as subject. Events out of "
            + "order or too late raise nothing; packets are never dropped.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        final List<Integer> pattern = config.getIntList("pattern");
        if (pattern.isEmpty() || pattern.size() > 255)
        {
            throw new VnfConfigException("pattern", "pattern has " + pattern.size()
                + " ports; write 1 to 255 destination ports, e.g. [22, 21, 6667]");
        }
        return new TrojanDetector(pattern.stream().mapToInt(Integer::intValue).toArray(),
            config.getDurationNs("window"), config.getDurationNs("expiry_interval"));
    }
}
