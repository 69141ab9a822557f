package io.transnfv.vnf.builtin.tenant;

import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.List;
import java.util.Objects;

/**
 * Creates the {@link TenantClassifier} of one multi-tenant chain: the tenants, their matches
 * and the default are the factory's own (the chain loader builds one per chain), so it takes
 * no parameters and is not in the registry. Immutable; any thread may call it.
 *
 * @param tenants       the tenants' names, in the order their matches are tried.
 * @param matches       each tenant's match.
 * @param defaultTenant index of the tenant unmatched packets go to, or -1 to drop them.
 * @param members       for each tenant, the names of the chain's VNFs that are its own (its
 *                      limiter first), so reports can sum per tenant.
 */
public record TenantClassifierFactory(List<String> tenants, List<TenantMatch> matches, int defaultTenant, List<List<String>> members)
    implements VnfFactory
{
    /** The type name reports and {@code transnfv validate} show. */
    public static final String TYPE = "tenant-classifier";

    /** Copies the lists. */
    public TenantClassifierFactory
    {
        tenants = List.copyOf(tenants);
        matches = List.copyOf(matches);
        members = members.stream().map(List::copyOf).toList();
        Objects.checkIndex(defaultTenant + 1, tenants.size() + 1);
    }

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public String description()
    {
        return "Sends each packet to the first tenant whose match accepts it (or the default tenant); "
            + "drops the others as no-tenant. Built from a chain's 'tenants:' section.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of();
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new TenantClassifier(tenants, matches, defaultTenant);
    }
}
