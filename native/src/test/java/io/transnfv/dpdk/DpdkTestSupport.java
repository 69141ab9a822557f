package io.transnfv.dpdk;

import io.transnfv.chains.ChainLoader;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/** Shared by the DPDK tests: failing or skipping without DPDK, traces, chains, and reading pcap files. */
final class DpdkTestSupport
{
    /**
     * System property: {@code false} lets the DPDK tests skip when the library or DPDK is
     * missing; unset or anything else (the default, and so CI) makes them fail. Surefire
     * passes Maven's command-line properties to the test JVMs, so
     * {@code ./transnfv test -Dtransnfv.dpdk.required=false} runs everything else on a
     * machine without libdpdk.
     */
    static final String REQUIRED_PROPERTY = "transnfv.dpdk.required";

    private DpdkTestSupport()
    {
    }

    /**
     * Fails the test when the native library or DPDK is missing, saying why and how to opt
     * out; skips it instead when {@value #REQUIRED_PROPERTY} is {@code false}.
     */
    static void assumeDpdk()
    {
        requireOrSkip(Dpdk.unavailableReason(), !"false".equals(System.getProperty(REQUIRED_PROPERTY)));
    }

    /**
     * @param unavailableReason why DPDK cannot be used, or null when it can.
     * @param required          true to fail rather than skip when it cannot.
     */
    static void requireOrSkip(final String unavailableReason, final boolean required)
    {
        if (unavailableReason == null)
        {
            return;
        }
        final String why = "DPDK unavailable: " + unavailableReason;
        if (required)
        {
            fail(why + ". The DPDK tests are required (" + REQUIRED_PROPERTY + " is not false, as in CI); to run the"
                + " other tests without DPDK: ./transnfv test -D" + REQUIRED_PROPERTY + "=false");
        }
        abort(why + " (skipped: " + REQUIRED_PROPERTY + "=false)");
    }

    /** The traces are kept once, with their licences, in the engine's test data. */
    private static final Path TRACES = Path.of("..", "engine", "src", "test", "resources", "traces");

    static Path trace(final String name)
    {
        final Path path = TRACES.resolve(name).toAbsolutePath().normalize();
        if (!Files.isRegularFile(path))
        {
            throw new IllegalStateException("missing test trace " + path);
        }
        return path;
    }

    static ChainSpec natLbTd() throws IOException
    {
        return new ChainLoader().loadBundled("nat-lb-td");
    }

    /** The engine as the CLI builds it by default: the TPG executor. */
    static ChainExecutor engine(final ChainSpec chain)
    {
        return new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg");
    }

    /** @return a listener that adds each packet's record, formatted, to {@code into}. */
    static PacketListener recorder(final ChainExecutor executor, final List<String> into)
    {
        final StringBuilder line = new StringBuilder();
        return (record, buffer, packet) ->
        {
            line.setLength(0);
            into.add(record.format(line, executor.runtime(), packet).toString());
        };
    }

    /**
     * @return a listener that calls {@code first}, then {@code second}; a DPDK sink goes
     *         second, as it must be the last to see a packet.
     */
    static PacketListener both(final PacketListener first, final PacketListener second)
    {
        return (record, buffer, packet) ->
        {
            first.onPacket(record, buffer, packet);
            second.onPacket(record, buffer, packet);
        };
    }

    /**
     * The captured bytes of every record of a classic pcap file (either byte order, micro-
     * or nanosecond timestamps), in file order. Timestamps are not returned: DPDK's pcap
     * vdev stamps frames with the time it transmitted them.
     */
    /** @return a listener that writes every forwarded packet's frame to {@code writer}. */
    static PacketListener forwardTo(final PcapWriter writer)
    {
        return (record, buffer, packet) ->
        {
            if (!record.dropped())
            {
                try
                {
                    writer.write(buffer);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    /**
     * Writes {@code frames} as a classic microsecond pcap file, the first at 1,700,000,000 s and
     * each {@code stepMicros} after the one before.
     */
    static Path writePcap(final Path file, final List<byte[]> frames, final long stepMicros) throws IOException
    {
        final ByteBuffer out = ByteBuffer.allocate(24 + frames.stream().mapToInt(f -> 16 + f.length).sum())
            .order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0xA1B2C3D4).putShort((short)2).putShort((short)4).putInt(0).putInt(0).putInt(65_535).putInt(1);
        long micros = 1_700_000_000_000_000L;
        for (final byte[] frame : frames)
        {
            out.putInt((int)(micros / 1_000_000)).putInt((int)(micros % 1_000_000)).putInt(frame.length).putInt(frame.length).put(frame);
            micros += stepMicros;
        }
        Files.write(file, out.array());
        return file;
    }

    static List<byte[]> pcapFrames(final Path file) throws IOException
    {
        final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final int magic = in.getInt(0);
        if (magic != 0xA1B2C3D4 && magic != 0xA1B23C4D)
        {
            in.order(ByteOrder.BIG_ENDIAN);
        }
        final List<byte[]> frames = new ArrayList<>();
        int p = 24;
        while (p + 16 <= in.limit())
        {
            final int captured = in.getInt(p + 8);
            final byte[] frame = new byte[captured];
            in.get(p + 16, frame);
            frames.add(frame);
            p += 16 + captured;
        }
        return frames;
    }

    /** EAL arguments for the tests: no NIC, no hugepages, vdevs attached per test. */
    static DpdkConfig pcapVdev(final String name, final Path rx, final Path tx, final ChainSpec chain)
    {
        return DpdkConfig.of(DpdkConfig.NO_NIC_ARGS)
            .withAttach("net_pcap_" + name + ",rx_pcap=" + rx + ",tx_pcap=" + tx)
            .withIdleTimeoutNs(300_000_000L)
            .forBatch(chain.settings().punctuationTransactions());
    }
}
