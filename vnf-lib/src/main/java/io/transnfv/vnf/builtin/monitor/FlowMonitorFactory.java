package io.transnfv.vnf.builtin.monitor;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.List;

/** Creates {@code flow-monitor} instances ({@link FlowMonitor}). Stateless; any thread may call it. */
public final class FlowMonitorFactory implements VnfFactory
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MS_NS = 1_000_000L;

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("idle_timeout", ParamKind.DURATION, 60 * SECOND_NS,
            "a flow idle longer than this ends and its record is removed").range(MS_NS, Double.MAX_VALUE),
        ParamSpec.optional("host_idle_timeout", ParamKind.DURATION, 0L,
            "a source host idle longer than this ends and its totals are removed; 0 keeps hosts for the run").range(0, Double.MAX_VALUE),
        ParamSpec.optional("expiry_interval", ParamKind.DURATION, SECOND_NS,
            "how often, in packet time, idle flows are swept").range(MS_NS, Double.MAX_VALUE));

    @Override
    public String type()
    {
        return "flow-monitor";
    }

    @Override
    public String description()
    {
        return "Counts packets and bytes per flow (5-tuple) and per source host, for reports and dumps; a flow's "
            + "record ends on FIN/RST or when idle. Forwards every packet unchanged.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new FlowMonitor(config.getDurationNs("idle_timeout"), config.getDurationNs("host_idle_timeout"),
            config.getDurationNs("expiry_interval"));
    }
}
