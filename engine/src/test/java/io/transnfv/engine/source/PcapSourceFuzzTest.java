package io.transnfv.engine.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the pcap and pcapng reader (Jazzer): any file opens or fails
 * with a {@link SourceException} naming it, and reading it (twice over, as a replay)
 * delivers a bounded number of packets, each of which the packet view parses, and throws
 * nothing at all. The seeds are the small test traces and the captures made for the tests
 * (copied into {@code PcapSourceFuzzTestInputs} by the build); without {@code JAZZER_FUZZ}
 * only they run.
 */
class PcapSourceFuzzTest
{
    private static Path directory;
    private static Path file;

    private final PacketBuffer buffer = new PacketBuffer();
    private final PacketFlyweight packet = new PacketFlyweight();

    @BeforeAll
    static void createFile() throws IOException
    {
        directory = Files.createTempDirectory("pcap-fuzz");
        file = directory.resolve("fuzz.pcap");
    }

    @AfterAll
    static void deleteFile() throws IOException
    {
        Files.deleteIfExists(file);
        Files.deleteIfExists(directory);
    }

    @FuzzTest
    void shouldReadAnyFileOrRefuseItWithTheReadersErrorAndNeverHang(final byte[] input)
    {
        try
        {
            Files.write(file, input);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        // a record takes at least a 16-byte header (a pcapng simple packet block: 16 bytes too)
        final long mostPackets = 2L * (input.length / 16 + 1);
        try (PcapSource source = PcapSource.open(file, 2))
        {
            long packets = 0;
            while (source.next(buffer))
            {
                packets++;
                assertTrue(packets <= mostPackets, "more packets than a file of " + input.length + " bytes holds");
                assertTrue(buffer.length() <= buffer.originalLength(), "captured " + buffer.length() + " > wire");
                packet.wrap(buffer.memory(), buffer.offset(), buffer.length(), buffer.originalLength(), buffer.linkType());
            }
            assertTrue(source.stats().warnings().size() <= SourceStats.MAX_WARNINGS);
        }
        catch (final SourceException e)
        {
            assertTrue(e.getMessage().startsWith("fuzz.pcap"), e.getMessage());
        }
    }
}
