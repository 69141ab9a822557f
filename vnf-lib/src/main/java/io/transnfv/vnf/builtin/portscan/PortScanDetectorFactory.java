package io.transnfv.vnf.builtin.portscan;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.List;

/** Creates {@code port-scan-detector} instances ({@link PortScanDetector}). Stateless; any thread may call it. */
public final class PortScanDetectorFactory implements VnfFactory
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MS_NS = 1_000_000L;

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("threshold", ParamKind.INT, 20,
            "distinct half-open targets within the window that make a scan").range(1, 1_000_000).whileRunning(),
        ParamSpec.optional("window", ParamKind.DURATION, 10 * SECOND_NS,
            "the time window targets are counted in").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("expiry_interval", ParamKind.DURATION, SECOND_NS,
            "how often, in packet time, stale probes and windows are swept").range(MS_NS, Double.MAX_VALUE));

    @Override
    public String type()
    {
        return "port-scan-detector";
    }

    @Override
    public String description()
    {
        return "Detects SYN port scans over IPv4 and IPv6: per source host (an IPv6 source: its /64), counts distinct (destination host, destination port) "
            + "targets it sent a SYN to and did not complete the handshake with, within a window; raises alert "
            + "port-scan once when the count reaches the threshold. Never drops packets.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new PortScanDetector(config.getInt("threshold"), config.getDurationNs("window"),
            config.getDurationNs("expiry_interval"));
    }
}
