package io.transnfv.engine.chain;

import io.transnfv.vnf.api.TableScope;

import java.util.Locale;

/**
 * How a state table spreads over the parallel instances of a scaled-out run (the Flink runtime):
 * which packets must meet on one instance for the table to hold what the serial oracle's does.
 * Declared per table in the chain ({@code tables: {t: {distribution: by-flow}}}); a table that
 * declares nothing follows its scope ({@link #defaultFor}). A standalone run ignores it.
 */
public enum TableDistribution
{
    /** Keyed by a flow (or finer): every packet of a connection, both directions, must meet. */
    BY_FLOW("by-flow"),
    /** Keyed by a source host: every packet one host sends must meet. */
    BY_SOURCE_HOST("by-source-host"),
    /** Shared by every packet: all of the chain's traffic meets on one instance (correct, and a hot spot). */
    SINGLE("single"),
    /**
     * Each instance keeps its own copy, fed by the packets routed to it (a load balancer's view of
     * its servers' load): each instance is equivalent to the oracle over its own packets, and the
     * union of instances is not the standalone run.
     */
    PER_SUBTASK("per-subtask");

    private final String yamlName;

    TableDistribution(final String yamlName)
    {
        this.yamlName = yamlName;
    }

    /** @return the name written in the chain YAML, e.g. {@code by-flow}. */
    public String yamlName()
    {
        return yamlName;
    }

    /** @return the distribution of a table that declares none: per-flow tables by flow, cross-flow ones single. */
    public static TableDistribution defaultFor(final TableScope scope)
    {
        return scope == TableScope.PER_FLOW ? BY_FLOW : SINGLE;
    }

    /** @return the distribution named {@code text} in YAML, or null if none is. */
    public static TableDistribution parse(final String text)
    {
        for (final TableDistribution d : values())
        {
            if (d.yamlName.equals(text.toLowerCase(Locale.ROOT)))
            {
                return d;
            }
        }
        return null;
    }

    /** @return every YAML name, for error messages. */
    public static String names()
    {
        final StringBuilder names = new StringBuilder();
        for (final TableDistribution d : values())
        {
            names.append(names.length() == 0 ? "" : ", ").append(d.yamlName);
        }
        return names.toString();
    }
}
