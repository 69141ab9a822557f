package io.transnfv.vnf.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one VNF did with one packet, as {@link VnfHarness#offer} reports it. Immutable: the
 * frame is copied in and out.
 *
 * @param output      the output the packet was forwarded to, or null if it was dropped.
 * @param dropReason  the drop reason's name, or null if it was forwarded.
 * @param aborted     whether the packet's transaction aborted.
 * @param abortReason the VNF's abort reason code, 0 if it committed.
 * @param alerts      alerts raised, each as {@code type:subject} (subject in decimal).
 * @param tags        tags set, by name.
 * @param frame       the frame's bytes after post-processing (rewrites applied).
 */
public record Outcome(
    String output,
    String dropReason,
    boolean aborted,
    int abortReason,
    List<String> alerts,
    Map<String, Long> tags,
    byte[] frame)
{
    /** Copies the mutable parts. */
    public Outcome
    {
        alerts = List.copyOf(alerts);
        tags = Map.copyOf(tags);
        frame = frame.clone();
    }

    /** @return a copy of the frame after post-processing. */
    @Override
    public byte[] frame()
    {
        return frame.clone();
    }

    /** @return true if the packet was dropped. */
    public boolean dropped()
    {
        return dropReason != null;
    }

    /** @return true if the packet was forwarded (to any output). */
    public boolean forwarded()
    {
        return dropReason == null;
    }

    /** @return the value of tag {@code name}, or null if it was not set. */
    public Long tag(final String name)
    {
        return tags.get(name);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Outcome o
            && Objects.equals(output, o.output)
            && Objects.equals(dropReason, o.dropReason)
            && aborted == o.aborted
            && abortReason == o.abortReason
            && alerts.equals(o.alerts)
            && tags.equals(o.tags)
            && Arrays.equals(frame, o.frame);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(output, dropReason, aborted, abortReason, alerts, tags) * 31 + Arrays.hashCode(frame);
    }

    @Override
    public String toString()
    {
        return "Outcome[" + (dropped() ? "dropped " + dropReason : "forwarded " + output)
            + (aborted ? ", aborted " + abortReason : "") + ", alerts=" + alerts + ", tags=" + tags
            + ", frame " + frame.length + " bytes]";
    }
}
