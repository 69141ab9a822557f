package io.transnfv.chains;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Writes a seeded capture that mixes IPv4 and IPv6 the way the built-in VNFs must both see:
 * connections opened from inside (RFC 1918 and unique-local sources) with their replies,
 * closes; unsolicited inbound packets; an IPv6 SYN scan from an inside /64 that changes
 * address per probe; ICMP and ICMPv6 errors quoting live flows in both
 * directions and flows that never existed; and, interleaved, the real IPv6 capture
 * {@code http_ipv6.pcap}. Classic little-endian pcap, microsecond timestamps.
 */
final class MixedFamilyCapture
{
    private static final String[] INSIDE_V4 = {"10.0.0.5", "10.0.0.6", "192.168.1.20"};
    private static final String[] INSIDE_V6 = {"fd00::5", "fd00::6", "fd12:3456::20"};
    private static final String[] OUTSIDE_V4 = {"198.51.100.7", "203.0.113.80", "8.8.8.8"};
    private static final String[] OUTSIDE_V6 = {"2001:db8:ffff::7", "2001:4860::8888", "2001:db8:100::80"};

    private MixedFamilyCapture()
    {
    }

    /**
     * @param file     where to write the capture.
     * @param packets  about how many synthetic packets to write (the real capture comes on top).
     * @param seed     the seed: the same seed writes the same file.
     * @param realIpv6 the real IPv6 capture to interleave.
     * @return the number of packets written.
     */
    static int write(final Path file, final int packets, final long seed, final Path realIpv6) throws IOException
    {
        final Random random = new Random(seed);
        final List<byte[]> frames = new ArrayList<>();
        final List<byte[]> recent = new ArrayList<>();
        final List<byte[]> real = readFrames(realIpv6);
        int realNext = 0;
        int scanAddress = 1;
        while (frames.size() < packets)
        {
            final boolean v6 = random.nextBoolean();
            final String inside = pick(random, v6 ? INSIDE_V6 : INSIDE_V4);
            final String outside = pick(random, v6 ? OUTSIDE_V6 : OUTSIDE_V4);
            final int clientPort = 30000 + random.nextInt(64);
            final int serverPort = random.nextInt(4) == 0 ? 53 : 80 + random.nextInt(3);
            final int roll = random.nextInt(100);
            if (roll < 45)
            {
                // a short TCP connection from inside: handshake, data both ways, maybe a close
                add(frames, recent, Frames.tcp(inside, clientPort, outside, serverPort, PacketFlyweight.TCP_SYN, 0));
                add(frames, recent, Frames.tcp(outside, serverPort, inside, clientPort,
                    PacketFlyweight.TCP_SYN | PacketFlyweight.TCP_ACK, 0));
                add(frames, recent, Frames.tcp(inside, clientPort, outside, serverPort, PacketFlyweight.TCP_ACK, 0));
                add(frames, recent, Frames.tcp(outside, serverPort, inside, clientPort, PacketFlyweight.TCP_ACK,
                    random.nextInt(600)));
                if (random.nextInt(3) == 0)
                {
                    add(frames, recent, Frames.tcp(inside, clientPort, outside, serverPort,
                        random.nextBoolean() ? PacketFlyweight.TCP_FIN | PacketFlyweight.TCP_ACK : PacketFlyweight.TCP_RST, 0));
                }
            }
            else if (roll < 60)
            {
                add(frames, recent, Frames.udp(inside, clientPort, outside, 53, 30 + random.nextInt(40)));
                add(frames, recent, Frames.udp(outside, 53, inside, clientPort, 60 + random.nextInt(200)));
            }
            else if (roll < 70)
            {
                // unsolicited inbound: no connection to match
                add(frames, recent, Frames.tcp(outside, serverPort, inside, clientPort + 1000, PacketFlyweight.TCP_ACK, 10));
            }
            else if (roll < 80)
            {
                // an inside scanner that takes a new address of its /64 for every probe
                final String scanner = "fd00:bad::" + Integer.toHexString(scanAddress++);
                add(frames, recent, Frames.tcp(scanner, 40000, pick(random, OUTSIDE_V6), 1 + random.nextInt(1024),
                    PacketFlyweight.TCP_SYN, 0));
            }
            else if (roll < 92 && !recent.isEmpty())
            {
                // an error about a recent packet, sent towards that packet's source
                final byte[] quoted = recent.get(random.nextInt(recent.size()));
                final PacketFlyweight q = new PacketFlyweight().wrap(quoted, 0, quoted.length);
                if (q.hasPorts())
                {
                    final boolean quotedV6 = q.isIpv6();
                    final String router = quotedV6 ? "2001:db8:ffff::1" : "192.0.2.1";
                    final String to = quotedV6 ? address6(q.srcIpv6High(), q.srcIpv6Low()) : address4(q.srcIpv4());
                    add(frames, recent, Frames.icmpError(router, to, quotedV6 ? 1 + random.nextInt(4) : 3, 3, quoted));
                }
            }
            else if (realNext < real.size())
            {
                for (int i = 0; i < 8 && realNext < real.size(); i++)
                {
                    frames.add(real.get(realNext++));
                }
            }
        }
        while (realNext < real.size())
        {
            frames.add(real.get(realNext++));
        }
        writePcap(file, frames);
        return frames.size();
    }

    private static void add(final List<byte[]> frames, final List<byte[]> recent, final byte[] frame)
    {
        frames.add(frame);
        recent.add(frame);
        if (recent.size() > 64)
        {
            recent.remove(0);
        }
    }

    private static String pick(final Random random, final String[] choices)
    {
        return choices[random.nextInt(choices.length)];
    }

    private static String address4(final int address)
    {
        return io.transnfv.vnf.packet.Ipv4.format(address);
    }

    private static String address6(final long high, final long low)
    {
        return io.transnfv.vnf.packet.Ipv6.format(high, low);
    }

    private static List<byte[]> readFrames(final Path pcap) throws IOException
    {
        final ByteBuffer file;
        try (InputStream in = Files.newInputStream(pcap))
        {
            file = ByteBuffer.wrap(in.readAllBytes()).order(ByteOrder.LITTLE_ENDIAN);
        }
        final List<byte[]> frames = new ArrayList<>();
        int at = 24;
        while (at + 16 <= file.limit())
        {
            final int length = file.getInt(at + 8);
            final byte[] bytes = new byte[length];
            file.get(at + 16, bytes);
            frames.add(bytes);
            at += 16 + length;
        }
        return frames;
    }

    private static void writePcap(final Path file, final List<byte[]> frames) throws IOException
    {
        int size = 24;
        for (final byte[] frame : frames)
        {
            size += 16 + frame.length;
        }
        final ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0xA1B2C3D4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65535).putInt(1);
        long micros = 1_700_000_000L * 1_000_000L;
        for (final byte[] frame : frames)
        {
            micros += 150;
            out.putInt((int)(micros / 1_000_000L)).putInt((int)(micros % 1_000_000L)).putInt(frame.length).putInt(frame.length);
            out.put(frame);
        }
        Files.write(file, out.array());
    }
}
