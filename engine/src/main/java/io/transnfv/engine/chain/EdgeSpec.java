package io.transnfv.engine.chain;

import io.transnfv.vnf.packet.PacketPredicate;

import java.util.Objects;

/**
 * An edge of the chain's DAG. A packet that leaves {@code from} through {@code output}
 * follows the first edge, in declaration order, whose predicate accepts it; if none does,
 * it leaves the chain (to the sink).
 *
 * @param from   the source VNF's name.
 * @param output the source VNF's output name ({@code out} by default).
 * @param when   the predicate on packet fields; {@link #ALWAYS} when the edge has none.
 * @param whenText the predicate as written, for messages and reports ("" when none).
 * @param to     the destination VNF's name.
 */
public record EdgeSpec(String from, String output, PacketPredicate when, String whenText, String to)
{
    /** A predicate that accepts every packet. */
    public static final PacketPredicate ALWAYS = packet -> true;

    /** Checks the fields are present. */
    public EdgeSpec
    {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(when, "when");
        Objects.requireNonNull(to, "to");
        whenText = whenText == null ? "" : whenText;
    }
}
