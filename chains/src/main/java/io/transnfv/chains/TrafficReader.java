package io.transnfv.chains;

import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.source.GeneratorConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code settings.traffic}: exactly one of {@code generate:} (the generator's
 * parameters, each checked once by a {@link GeneratorConfig.Builder} as it is read) or
 * {@code pcap:} with an optional {@code loop:}. Setup only.
 */
final class TrafficReader
{
    static final List<String> TRAFFIC_KEYS = List.of("generate", "pcap", "loop");

    private static final String GENERATOR_FIX = "see 'generate' in docs/chain-yaml.md for each parameter's range";

    private final ChainErrors errors;
    private final Path baseDirectory;

    /**
     * @param errors        where problems are added.
     * @param baseDirectory where relative pcap paths resolve, or null for the working directory.
     */
    TrafficReader(final ChainErrors errors, final Path baseDirectory)
    {
        this.errors = errors;
        this.baseDirectory = baseDirectory;
    }

    /**
     * @param node     the {@code traffic:} map, or null if the settings have none.
     * @param fallback the traffic when there is no map.
     * @return the traffic, or null if an error was added.
     */
    TrafficSpec read(final YamlNode node, final TrafficSpec fallback)
    {
        if (node == null)
        {
            return fallback;
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'traffic'",
            "write '{ generate: { packets: 1000000 } }' or '{ pcap: trace.pcap, loop: 1 }'");
        if (map == null)
        {
            return null;
        }
        final int errorsBefore = errors.count();
        errors.checkKeys(map, TRAFFIC_KEYS, "in 'traffic'");
        final YamlNode.Entry generate = map.entry("generate");
        final YamlNode.Entry pcap = map.entry("pcap");
        final YamlNode.Entry loop = map.entry("loop");
        if (generate != null && pcap != null)
        {
            final YamlNode.Entry second = generate.keyLine() > pcap.keyLine()
                || generate.keyLine() == pcap.keyLine() && generate.keyColumn() > pcap.keyColumn() ? generate : pcap;
            errors.addAtKey(second, "'traffic' has both 'generate' and 'pcap'",
                "keep one: 'generate: { ... }' for synthetic packets, or 'pcap: <file>' to replay a capture");
            return null;
        }
        if (generate == null && pcap == null)
        {
            errors.add(map, "'traffic' needs 'generate' or 'pcap'",
                "add 'generate: { packets: 1000000 }' or 'pcap: <file>'");
            return null;
        }
        if (generate != null)
        {
            if (loop != null)
            {
                errors.addAtKey(loop, "'loop' applies to pcap traffic only", "remove 'loop' (use 'packets:' under 'generate')");
            }
            final GeneratorConfig config = generator(generate.value());
            return errors.count() > errorsBefore || config == null ? null : TrafficSpec.generate(config);
        }
        int loops = 1;
        if (loop != null)
        {
            loops = (int)errors.boundedNumber(loop.value(), "loop", 1, Integer.MAX_VALUE, "", 1);
        }
        final Path file = pcapFile(pcap.value());
        return errors.count() > errorsBefore || file == null ? null : TrafficSpec.pcap(file, loops);
    }

    private GeneratorConfig generator(final YamlNode node)
    {
        if (node instanceof YamlNode.Scalar s && s.isNull())
        {
            return GeneratorConfig.defaults();
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'generate'",
            "write a map of generator parameters, e.g. '{ packets: 1000000, new_conn_ratio: 0.05 }'");
        if (map == null)
        {
            return null;
        }
        final GeneratorConfig.Builder config = GeneratorConfig.builder();
        final Map<String, YamlNode> accepted = new HashMap<>();
        final Set<String> rejected = new HashSet<>();
        boolean ok = true;
        for (final YamlNode.Entry entry : map.entries())
        {
            if (entry.key().equals("streams"))
            {
                ok &= streams(entry, config);
                continue;
            }
            if (!GeneratorConfig.KEYS.contains(entry.key()))
            {
                errors.addAtKey(entry, "unknown generator parameter '" + entry.key() + "'",
                    ChainErrors.suggestion(entry.key(), GeneratorConfig.KEYS, "generator parameters"));
                ok = false;
                continue;
            }
            final String text = generatorValue(entry.value());
            if (text == null)
            {
                errors.add(entry.value(), "bad generator parameter '" + entry.key() + "': " + entry.value().describe(),
                    entry.key().equals("dst_ports") ? "write a port or a list of ports, e.g. [80, 443]" : "write a single value");
                rejected.add(entry.key());
                ok = false;
                continue;
            }
            try
            {
                config.set(entry.key(), text);
                accepted.put(entry.key(), entry.value());
            }
            catch (final IllegalArgumentException e)
            {
                errors.add(entry.value(), e.getMessage(), GENERATOR_FIX);
                rejected.add(entry.key());
                ok = false;
            }
        }
        try
        {
            final GeneratorConfig built = config.build();
            return ok ? built : null;
        }
        catch (final GeneratorConfig.ParameterException e)
        {
            // A check of several values (the frame size range) is reported unless one of them was
            // already reported bad; a value not written takes part with its default.
            if (e.parameters().stream().noneMatch(rejected::contains))
            {
                final YamlNode at = e.parameters().stream().filter(accepted::containsKey).findFirst()
                    .map(accepted::get).orElse(map);
                errors.add(at, e.getMessage(), GENERATOR_FIX);
            }
            return null;
        }
    }

    /**
     * Reads {@code streams:}, a list of maps of generator parameters, one per merged stream
     * (docs/chain-yaml.md); reports each bad parameter at its line.
     *
     * @return false if anything was reported.
     */
    private boolean streams(final YamlNode.Entry entry, final GeneratorConfig.Builder config)
    {
        final YamlNode.SeqNode list = errors.expectSeq(entry.value(), "'streams'",
            "write a list of maps of generator parameters, e.g. '- { rate_pps: 900000, vlan: 100 }'");
        if (list == null)
        {
            return false;
        }
        if (list.items().isEmpty() || list.items().size() > GeneratorConfig.MAX_STREAMS)
        {
            errors.add(entry.value(), "'streams' lists " + list.items().size() + " streams", "list 1 to "
                + GeneratorConfig.MAX_STREAMS + " streams");
            return false;
        }
        boolean ok = true;
        for (int i = 0; i < list.items().size(); i++)
        {
            final YamlNode.MapNode stream = errors.expectMap(list.items().get(i), "a stream of 'streams'",
                "write a map of generator parameters, e.g. '{ rate_pps: 900000, vlan: 100 }'");
            if (stream == null)
            {
                ok = false;
                continue;
            }
            final GeneratorConfig.Builder builder = config.stream(i);
            for (final YamlNode.Entry parameter : stream.entries())
            {
                if (!GeneratorConfig.KEYS.contains(parameter.key()))
                {
                    errors.addAtKey(parameter, "unknown generator parameter '" + parameter.key() + "' in stream " + i,
                        parameter.key().equals("streams") ? "a stream has no streams of its own"
                            : ChainErrors.suggestion(parameter.key(), GeneratorConfig.KEYS, "generator parameters"));
                    ok = false;
                    continue;
                }
                final String text = generatorValue(parameter.value());
                try
                {
                    if (text == null)
                    {
                        throw new IllegalArgumentException("bad generator parameter '" + parameter.key() + "': " + parameter.value().describe());
                    }
                    builder.set(parameter.key(), text);
                }
                catch (final IllegalArgumentException e)
                {
                    errors.add(parameter.value(), "stream " + i + ": " + e.getMessage(), GENERATOR_FIX);
                    ok = false;
                }
            }
        }
        return ok;
    }

    private static String generatorValue(final YamlNode node)
    {
        if (node instanceof YamlNode.Scalar s)
        {
            return s.isNull() ? null : s.text();
        }
        if (node instanceof YamlNode.SeqNode seq && !seq.items().isEmpty())
        {
            final StringBuilder out = new StringBuilder();
            for (final YamlNode item : seq.items())
            {
                if (!(item instanceof YamlNode.Scalar s) || s.isNull())
                {
                    return null;
                }
                out.append(out.length() == 0 ? "" : ",").append(s.text());
            }
            return out.toString();
        }
        return null;
    }

    private Path pcapFile(final YamlNode node)
    {
        final String text = ChainErrors.scalarText(node);
        if (text == null || text.isBlank())
        {
            errors.add(node, "bad pcap " + node.describe(), "write the path of a .pcap or .pcapng file");
            return null;
        }
        final Path given = Path.of(text);
        final Path file = given.isAbsolute() || baseDirectory == null ? given : baseDirectory.resolve(given);
        if (!Files.isRegularFile(file))
        {
            errors.add(node, "pcap file not found: " + file.toAbsolutePath().normalize(),
                "check the path; a relative path resolves against "
                    + (baseDirectory == null ? "the working directory" : "the chain file's directory " + baseDirectory));
            return null;
        }
        return file.normalize();
    }
}
