package io.transnfv.engine.chain;

import io.transnfv.engine.source.GeneratorConfig;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a run's packets come from.
 *
 * @param kind      generator or pcap file.
 * @param generator for {@link Kind#GENERATE}: the generator's settings, checked when they
 *                  were read; null for {@link Kind#PCAP}.
 * @param pcap      for {@link Kind#PCAP}: the capture file (pcap or pcapng).
 * @param loops     for {@link Kind#PCAP}: how many times to replay the file, at least 1.
 */
public record TrafficSpec(Kind kind, GeneratorConfig generator, Path pcap, int loops)
{
    /** The kinds of traffic source. */
    public enum Kind
    {
        /** The deterministic synthetic generator. */
        GENERATE,
        /** A pcap or pcapng file. */
        PCAP
    }

    /** Checks the fields agree with the kind. */
    public TrafficSpec
    {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.GENERATE && generator == null)
        {
            throw new IllegalArgumentException("generated traffic needs the generator's settings");
        }
        if (kind == Kind.PCAP && pcap == null)
        {
            throw new IllegalArgumentException("pcap traffic needs a file");
        }
        if (loops < 1)
        {
            throw new IllegalArgumentException("loops must be >= 1: " + loops);
        }
    }

    /** @return generated traffic with the given settings. */
    public static TrafficSpec generate(final GeneratorConfig config)
    {
        return new TrafficSpec(Kind.GENERATE, config, null, 1);
    }

    /** @return traffic read from a capture file, replayed {@code loops} times. */
    public static TrafficSpec pcap(final Path file, final int loops)
    {
        return new TrafficSpec(Kind.PCAP, null, file, loops);
    }
}
