package io.transnfv.chains;

import io.transnfv.engine.chain.CheckerSettings;
import io.transnfv.vnf.api.VnfConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code settings: checkers:} into {@link CheckerSettings}, then checks the checkers it
 * names against those the chain's VNFs declare ({@link #check}). Setup only.
 *
 * <pre>
 *  checkers:
 *    enabled: [nat, lb.load-counts-its-connections]   # a VNF (all its checkers) or vnf.checker; default: all
 *    every: 1s                                        # or 4 (batches), or end (the default)
 * </pre>
 */
final class CheckersReader
{
    static final List<String> CHECKERS_KEYS = List.of("enabled", "every");
    private static final String EVERY_FIX = "write 'end' (on the final state only, the default), a duration of packet time"
        + " (e.g. 1s or 500ms) or a whole number of batches (e.g. 10: every 10 x punctuation.transactions packets)";

    private final ChainErrors errors;
    /** The items of {@code enabled}, to check once the VNFs are known. */
    private final List<YamlNode> enabledAt = new ArrayList<>();

    CheckersReader(final ChainErrors errors)
    {
        this.errors = errors;
    }

    /**
     * @param node the {@code checkers} value, or null if the settings have none.
     * @return the settings (the defaults if there is no section or it is unusable).
     */
    CheckerSettings read(final YamlNode node)
    {
        final CheckerSettings defaults = CheckerSettings.defaults();
        if (ChainErrors.isAbsent(node))
        {
            return defaults;
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'checkers'", "write '{ enabled: [nat, lb], every: 1s }'");
        if (map == null)
        {
            return defaults;
        }
        errors.checkKeys(map, CHECKERS_KEYS, "in 'checkers'");
        List<String> enabled = null;
        final YamlNode enabledNode = map.get("enabled");
        if (!ChainErrors.isAbsent(enabledNode))
        {
            final YamlNode.SeqNode list = errors.expectSeq(enabledNode, "'checkers enabled'",
                "write a list of VNF names (all their checkers) or <vnf>.<checker> names, e.g. [nat, lb.load-counts-its-connections];"
                    + " [] for none");
            if (list != null)
            {
                enabled = new ArrayList<>();
                for (final YamlNode item : list.items())
                {
                    final String name = ChainErrors.scalarText(item);
                    if (name == null || name.isBlank())
                    {
                        errors.add(item, "bad checker " + item.describe(), "write a VNF name or <vnf>.<checker>, e.g. nat.port-has-its-mapping");
                        continue;
                    }
                    enabled.add(name);
                    enabledAt.add(item);
                }
            }
        }
        long everyNs = 0;
        long everyBatches = 0;
        final YamlNode everyNode = map.get("every");
        if (!ChainErrors.isAbsent(everyNode))
        {
            final String text = ChainErrors.scalarText(everyNode);
            final long batches = ChainErrors.wholeNumber(everyNode);
            if (batches != Long.MIN_VALUE)
            {
                if (batches < 1)
                {
                    errors.add(everyNode, "bad checkers every " + everyNode.describe() + ": at least 1 batch", EVERY_FIX);
                }
                everyBatches = Math.max(0, batches);
            }
            else if (!"end".equals(text))
            {
                everyNs = durationNs(text);
                if (everyNs <= 0)
                {
                    errors.add(everyNode, "bad checkers every " + everyNode.describe(), EVERY_FIX);
                    everyNs = 0;
                }
            }
        }
        return new CheckerSettings(enabled, everyNs, everyBatches);
    }

    /** Reports each enabled name that is neither a VNF with checkers nor one of a VNF's checkers. */
    void check(final List<VnfsReader.Vnf> vnfs)
    {
        final List<String> known = new ArrayList<>();
        for (final VnfsReader.Vnf vnf : vnfs)
        {
            if (vnf.node() == null)
            {
                // its own errors are reported; its checkers are unknown
                return;
            }
            for (final String checker : vnf.checkers())
            {
                known.add(vnf.name() + "." + checker);
            }
        }
        for (final YamlNode item : enabledAt)
        {
            final String name = ChainErrors.scalarText(item);
            if (known.contains(name))
            {
                continue;
            }
            final VnfsReader.Vnf vnf = vnfs.stream().filter(v -> v.name().equals(name)).findFirst().orElse(null);
            if (vnf != null && !vnf.checkers().isEmpty())
            {
                continue;
            }
            if (vnf != null)
            {
                errors.add(item, "VNF '" + name + "' declares no state checkers",
                    "remove it from 'enabled'" + (known.isEmpty() ? "" : " (checkers of this chain: " + String.join(", ", known) + ")"));
            }
            else
            {
                errors.add(item, "unknown checker '" + name + "'", ChainErrors.suggestion(name, known, "checkers")
                    + "; a VNF's name alone enables all its checkers");
            }
        }
    }

    private static long durationNs(final String text)
    {
        if (text == null)
        {
            return -1;
        }
        try
        {
            return VnfConfig.parseDurationNs(text);
        }
        catch (final IllegalArgumentException e)
        {
            return -1;
        }
    }
}
