package io.transnfv.flink.job;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.flink.ChainSource;

/** The bundled chains on short generated traffic, as the tests ship them to Flink. */
final class Chains
{
    private Chains()
    {
    }

    /** @return bundled chain {@code name} on {@code packets} generated packets with {@code seed}. */
    static ChainSource bundled(final String name, final long packets, final long seed)
    {
        return () -> generated(new ChainLoader().loadBundled(name), packets, seed);
    }

    static ChainSpec generated(final ChainSpec chain, final long packets, final long seed)
    {
        return chain.withSettings(chain.settings().withTraffic(TrafficSpec.generate(
            chain.settings().traffic().generator().toBuilder().set("packets", Long.toString(packets)).seed(seed).build())));
    }
}
