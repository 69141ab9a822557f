package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the tenant tests share: crafted traces written as pcap files, frames marked for a
 * tenant's classifier (a VLAN tag, a DSCP), and a run's outputs as text that does not depend on
 * where in the trace a packet was (its record without the sequence number, and the frame it
 * leaves with).
 */
final class TenantRuns
{
    private TenantRuns()
    {
    }

    /** One packet of a trace: its time and its frame (Ethernet). */
    record Packet(long timeNs, byte[] frame)
    {
    }

    /** @return the packets a source yields, in order. */
    static List<Packet> read(final TrafficSpec traffic) throws IOException
    {
        final List<Packet> packets = new ArrayList<>();
        final PacketBuffer buffer = new PacketBuffer();
        try (PacketSource source = PacketSources.open(traffic))
        {
            while (source.next(buffer))
            {
                final byte[] frame = new byte[buffer.length()];
                buffer.copyTo(frame, 0, frame.length);
                packets.add(new Packet(buffer.timestampNs(), frame));
            }
        }
        return packets;
    }

    /** Writes the packets as a nanosecond pcap file (Ethernet) in {@code directory}. */
    static Path pcap(final Path directory, final List<Packet> packets) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xA1B23C4D).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65535).putInt(1);
        out.write(header.array());
        for (final Packet packet : packets)
        {
            final byte[] p = packet.frame();
            final ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt((int)(packet.timeNs() / 1_000_000_000L)).putInt((int)(packet.timeNs() % 1_000_000_000L)).putInt(p.length)
                .putInt(p.length);
            out.write(record.array());
            out.write(p);
        }
        final Path file = Files.createTempFile(directory, "tenants", ".pcap");
        Files.write(file, out.toByteArray());
        return file;
    }

    /** @return the frame with an 802.1Q tag of VLAN {@code vid} after its MAC addresses. */
    static byte[] vlanTagged(final byte[] frame, final int vid)
    {
        final byte[] tagged = new byte[frame.length + 4];
        System.arraycopy(frame, 0, tagged, 0, 12);
        tagged[12] = (byte)0x81;
        tagged[13] = 0x00;
        tagged[14] = (byte)(vid >>> 8 & 0x0F);
        tagged[15] = (byte)vid;
        System.arraycopy(frame, 12, tagged, 16, frame.length - 12);
        return tagged;
    }

    /**
     * @param frame an untagged or singly tagged Ethernet frame.
     * @return a copy whose IPv4 header carries DSCP {@code dscp} (checksum recomputed), or null
     *         if the frame is not IPv4.
     */
    static byte[] withDscp(final byte[] frame, final int dscp)
    {
        final int l3 = (frame[12] & 0xFF) == 0x81 && frame[13] == 0 ? 18 : 14;
        if (frame.length < l3 + 20 || (frame[l3 - 2] & 0xFF) != 0x08 || frame[l3 - 1] != 0 || (frame[l3] & 0xF0) != 0x40)
        {
            return null;
        }
        final byte[] marked = frame.clone();
        final int headerLength = (marked[l3] & 0x0F) * 4;
        marked[l3 + 1] = (byte)(dscp << 2 | marked[l3 + 1] & 0x03);
        marked[l3 + 10] = 0;
        marked[l3 + 11] = 0;
        int sum = 0;
        for (int i = 0; i < headerLength; i += 2)
        {
            sum += (marked[l3 + i] & 0xFF) << 8 | marked[l3 + i + 1] & 0xFF;
        }
        while (sum >>> 16 != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        final int checksum = ~sum & 0xFFFF;
        marked[l3 + 10] = (byte)(checksum >>> 8);
        marked[l3 + 11] = (byte)checksum;
        return marked;
    }

    /** @return the chain read from {@code yaml}, on the pcap file {@code trace}, with the punctuation and threads given. */
    static ChainSpec chain(final String yaml, final Path trace, final int batch, final long intervalNs, final int threads)
    {
        final ChainSpec parsed = new ChainLoader().parse(yaml, "t.yaml");
        return parsed.withSettings(parsed.settings().withTraffic(TrafficSpec.pcap(trace, 1)).withPunctuation(batch, intervalNs)
            .withExecutorThreads(threads));
    }

    /** A run's outputs and final state. */
    record Run(Map<Long, String> outputs, List<String> state)
    {
        /** @return the outputs of the packets at {@code sequences}, in that order (null where there is none). */
        List<String> outputsOf(final List<Long> sequences)
        {
            return sequences.stream().map(outputs::get).toList();
        }

        /** @return the state lines whose table belongs to a VNF whose name starts with one of {@code prefixes}. */
        List<String> stateOf(final String... prefixes)
        {
            return state.stream().filter(line ->
            {
                for (final String prefix : prefixes)
                {
                    if (line.startsWith(prefix))
                    {
                        return true;
                    }
                }
                return false;
            }).toList();
        }
    }

    /** @return null if the lists are equal, else where and how they first differ. */
    static String firstDifference(final List<String> expected, final List<String> actual)
    {
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++)
        {
            final String e = i < expected.size() ? expected.get(i) : "(none)";
            final String a = i < actual.size() ? actual.get(i) : "(none)";
            if (!e.equals(a))
            {
                return "line " + i + " of " + expected.size() + "/" + actual.size() + "\n  expected: " + e + "\n  actual:   " + a;
            }
        }
        return null;
    }

    /**
     * Runs the executor on the chain's traffic.
     *
     * @return each packet's output by its sequence number: its record without the sequence
     *         number, then the frame it left with, in hex; and the state dump without comments.
     */
    static Run run(final ChainExecutor executor, final ChainSpec chain) throws IOException
    {
        final Map<Long, String> outputs = new TreeMap<>();
        try (executor; PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            executor.run(source, (record, buffer, packet) ->
            {
                final String text = record.format(new StringBuilder(), executor.runtime(), packet).toString();
                final byte[] frame = new byte[buffer.length()];
                buffer.copyTo(frame, 0, frame.length);
                final String output = text.substring(text.indexOf(' ') + 1) + " | " + HexFormat.of().formatHex(frame);
                synchronized (outputs)
                {
                    outputs.put(record.sequence(), output);
                }
            });
            final List<String> state = executor.dumpState().lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .collect(Collectors.toList());
            synchronized (outputs)
            {
                return new Run(Map.copyOf(outputs), state);
            }
        }
    }
}
