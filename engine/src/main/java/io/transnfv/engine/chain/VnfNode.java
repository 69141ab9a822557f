package io.transnfv.engine.chain;

import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;

import java.util.Objects;

/**
 * One VNF of a chain: its unique name, its type's factory and its validated parameters.
 * Each runtime creates its own {@link Vnf} with {@link #create()}.
 *
 * @param name    unique in the chain, e.g. {@code nat}.
 * @param factory the type's factory.
 * @param config  parameters validated against {@code factory.params()}.
 */
public record VnfNode(String name, VnfFactory factory, VnfConfig config)
{
    /** Checks the fields are present. */
    public VnfNode
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(config, "config");
    }

    /** @return the VNF type name. */
    public String type()
    {
        return factory.type();
    }

    /** @return a new VNF instance of this node. */
    public Vnf create()
    {
        return factory.create(config);
    }
}
