package io.transnfv.cli;

import io.transnfv.chains.ClosestName;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.source.GeneratorConfig;

import java.util.HashSet;
import java.util.Set;

/**
 * {@code --generate k=v,...}: the generator's parameters on the command line, held to the
 * same standard as the chain's YAML: an unknown key gets a "did you mean", a key given twice
 * is refused rather than the last one silently winning.
 */
final class GeneratorOption
{
    private GeneratorOption()
    {
    }

    /**
     * Parses {@code text} into the generator's settings: keys given on the command line
     * override the chain's own generator settings, so {@code --generate packets=1000} keeps
     * the chain's other parameters.
     *
     * @param text         the option's value.
     * @param chainTraffic the chain's own traffic.
     * @return the generator's settings.
     * @throws UsageProblem for an unknown or repeated key.
     */
    static GeneratorConfig parse(final String text, final TrafficSpec chainTraffic)
    {
        checkKeys(text);
        final GeneratorConfig.Builder config = chainTraffic.kind() == TrafficSpec.Kind.GENERATE
            ? chainTraffic.generator().toBuilder() : GeneratorConfig.builder();
        try
        {
            return config.parse(text, item -> "--generate expects key=value pairs separated by commas, got '" + item + "'")
                .build();
        }
        catch (final GeneratorConfig.ParameterException e)
        {
            // a value out of its range: the message names the parameter and what it takes
            throw new UsageProblem("--generate: " + e.getMessage() + ".", "give " + String.join(" and ", e.parameters())
                + " a value in that range (docs/packets.md lists every generator parameter and its range).");
        }
    }

    private static void checkKeys(final String text)
    {
        final Set<String> seen = new HashSet<>();
        for (final String rawItem : text.split(","))
        {
            final String item = rawItem.trim();
            final int equals = item.indexOf('=');
            if (equals <= 0)
            {
                continue; // a dst_ports continuation, or an item the generator's own parser names
            }
            final String key = item.substring(0, equals).trim();
            if (!GeneratorConfig.KEYS.contains(key))
            {
                final String closest = ClosestName.of(key, GeneratorConfig.KEYS);
                throw new UsageProblem("--generate: unknown generator parameter '" + key + "'"
                    + (closest == null ? "" : "; did you mean '" + closest + "'?"),
                    (closest == null ? "use one of " : "write " + closest + "=..., or use one of ")
                        + String.join(", ", GeneratorConfig.KEYS) + ".");
            }
            if (!seen.add(key))
            {
                throw new UsageProblem("--generate: '" + key + "' is given twice; only one value can apply.",
                    "keep one " + key + "=... in the list.");
            }
        }
    }
}
