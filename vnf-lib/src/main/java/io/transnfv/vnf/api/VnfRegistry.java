package io.transnfv.vnf.api;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The VNF types available to chains: every {@link VnfFactory} on the class path, found with
 * {@link ServiceLoader}. The built-in types are registered the same way as user types.
 */
public final class VnfRegistry
{
    private final Map<String, VnfFactory> byType;

    private VnfRegistry(final Map<String, VnfFactory> byType)
    {
        this.byType = Collections.unmodifiableMap(byType);
    }

    /** @return the types visible to this class's class loader. */
    public static VnfRegistry load()
    {
        return load(VnfRegistry.class.getClassLoader());
    }

    /**
     * @param loader where to look for {@code META-INF/services/io.transnfv.vnf.api.VnfFactory}.
     * @return the types found.
     * @throws IllegalStateException if two factories claim the same type name.
     */
    public static VnfRegistry load(final ClassLoader loader)
    {
        final Map<String, VnfFactory> byType = new TreeMap<>();
        for (final VnfFactory factory : ServiceLoader.load(VnfFactory.class, loader))
        {
            final VnfFactory previous = byType.putIfAbsent(factory.type(), factory);
            if (previous != null && previous.getClass() != factory.getClass())
            {
                throw new IllegalStateException("VNF type '" + factory.type() + "' is defined by both "
                    + previous.getClass().getName() + " and " + factory.getClass().getName());
            }
        }
        return new VnfRegistry(byType);
    }

    /** @return the factory of {@code type}, or null. */
    public VnfFactory find(final String type)
    {
        return byType.get(type);
    }

    /** @return every type, by name. */
    public Map<String, VnfFactory> types()
    {
        return byType;
    }
}
