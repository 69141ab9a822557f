package io.transnfv.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Outputs written under temporary names: moved into place on commit, removed when the command fails. */
class OutputFilesTest
{
    @TempDir
    Path dir;

    private List<Path> files() throws IOException
    {
        try (Stream<Path> listing = Files.list(dir))
        {
            return listing.sorted().toList();
        }
    }

    private OutputFiles claim(final Path... outputs)
    {
        final Map<String, Path> byOption = new LinkedHashMap<>();
        for (int i = 0; i < outputs.length; i++)
        {
            byOption.put("--output-" + i, outputs[i]);
        }
        return OutputFiles.claim(Map.of(), byOption, Set.of());
    }

    @Test
    void shouldRemoveEveryTemporaryFileWhenTheCommandFailsBeforeCommitting() throws IOException
    {
        final Path pcap = dir.resolve("out.pcap");
        final Path records = Files.writeString(dir.resolve("records.txt"), "earlier\n");
        try (OutputFiles outputs = claim(pcap, records))
        {
            assertNotEquals(pcap, outputs.writePath(pcap));
            Files.writeString(outputs.writePath(pcap), "24 bytes of a pcap header");
            Files.writeString(outputs.writePath(records), "half a run");
        }
        assertEquals(List.of(records), files(), "only the earlier file, untouched");
        assertEquals("earlier\n", Files.readString(records));
    }

    @Test
    void shouldMoveEveryOutputIntoPlaceOnCommit() throws IOException
    {
        final Path pcap = dir.resolve("out.pcap");
        final Path records = Files.writeString(dir.resolve("records.txt"), "earlier\n");
        try (OutputFiles outputs = claim(pcap, records))
        {
            Files.writeString(outputs.writePath(pcap), "packets");
            Files.writeString(outputs.writePath(records), "this run\n");
            outputs.commit();
        }
        assertEquals(List.of(pcap, records), files());
        assertEquals("packets", Files.readString(pcap));
        assertEquals("this run\n", Files.readString(records));
    }

    @Test
    void shouldWriteADeviceDirectlyRatherThanReplaceIt()
    {
        final Path device = Path.of("/dev/null");
        try (OutputFiles outputs = claim(device))
        {
            assertEquals(device, outputs.writePath(device));
        }
    }
}
