package io.transnfv.vnf.builtin.tenant;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.List;

/**
 * Creates {@link TenantLimiter}s from a tenant's {@code limits:} ({@code pps}, {@code burst}).
 * Not in the registry: the chain loader puts one in front of each tenant's chain. Stateless;
 * any thread may call it.
 */
public final class TenantLimiterFactory implements VnfFactory
{
    /** The type name reports and {@code transnfv validate} show. */
    public static final String TYPE = "tenant-limiter";

    private static final List<ParamSpec> PARAMS = List.of(
        ParamSpec.optional("pps", ParamKind.LONG, 0L, "packets per second of packet time; 0 for no limit").range(0, 1e9),
        ParamSpec.optional("burst", ParamKind.LONG, 1L, "packets that may pass at once after an idle time").range(1, Integer.MAX_VALUE));

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public String description()
    {
        return "Counts a tenant's packets and, with a rate, drops those over it (a token bucket in packet time) as rate-limit.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return PARAMS;
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new TenantLimiter(config.getLong("pps"), config.getLong("burst"));
    }
}
