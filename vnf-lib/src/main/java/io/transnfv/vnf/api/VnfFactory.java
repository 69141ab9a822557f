package io.transnfv.vnf.api;

import java.util.List;

/**
 * Creates VNF instances of one type from their parameters. Built-in types are listed by
 * {@link VnfRegistry}; others are found through {@link java.util.ServiceLoader} under
 * {@code META-INF/services/io.transnfv.vnf.api.VnfFactory}.
 */
public interface VnfFactory
{
    /** @return the type name used in chain YAML, e.g. {@code nat}. */
    String type();

    /** @return one paragraph saying what the VNF does. */
    String description();

    /** @return the parameters the type accepts. */
    List<ParamSpec> params();

    /**
     * @param config validated against {@link #params()}.
     * @return a new instance.
     * @throws VnfConfigException for values that pass the type check but make no sense.
     */
    Vnf create(VnfConfig config);
}
