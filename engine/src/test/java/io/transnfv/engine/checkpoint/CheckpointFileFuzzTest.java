package io.transnfv.engine.checkpoint;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the checkpoint reader (Jazzer): any file decodes to a checkpoint
 * or is refused with a {@link CheckpointException} naming it, never anything else, and never
 * allocates more entries than the file's bytes can hold. A checksum guards a real file, so
 * random bytes would only ever reach the checksum test: the target seals the input as a
 * body between a valid header and trailer (taking the chain fingerprint from the body, so the
 * decoder goes past that check too), and also hands the raw input to the decoder. Without
 * {@code JAZZER_FUZZ} only the seeds in {@code CheckpointFileFuzzTestInputs} run.
 */
class CheckpointFileFuzzTest
{
    private static final Path FILE = Path.of("fuzz.ckpt");
    /** Offset of the chain fingerprint in a file: magic, version, kind, a spare byte, id, previous id. */
    private static final int CHAIN_OFFSET = CheckpointFile.MAGIC.length + 2 + 1 + 1 + 8 + 8;

    @FuzzTest
    void shouldDecodeAnyFileOrRefuseItByNameAndNeverAllocateBeyondIt(final byte[] body)
    {
        final byte[] sealed = seal(body);
        final long chain = sealed.length >= CHAIN_OFFSET + 8 ? ByteBuffer.wrap(sealed).getLong(CHAIN_OFFSET) : 0;
        decodes(sealed, chain);
        decodes(body, chain);
    }

    private static void decodes(final byte[] bytes, final long chain)
    {
        try
        {
            final Checkpoint checkpoint = CheckpointFile.decode(FILE, bytes, chain);
            assertTrue(16L * checkpoint.entries() <= bytes.length, checkpoint.entries() + " entries from " + bytes.length + " bytes");
        }
        catch (final CheckpointException e)
        {
            assertTrue(e.getMessage().contains("fuzz.ckpt"), e.getMessage());
        }
    }

    /** @return magic, version, {@code body}, then the trailer a writer puts: the length before it and a CRC32C. */
    private static byte[] seal(final byte[] body)
    {
        final int length = CheckpointFile.MAGIC.length + 2 + body.length;
        final ByteBuffer file = ByteBuffer.allocate(length + CheckpointFile.TRAILER_BYTES);
        file.put(CheckpointFile.MAGIC).putShort((short)CheckpointFile.VERSION).put(body).putLong(length);
        final CRC32C crc = new CRC32C();
        crc.update(file.array(), 0, file.position());
        file.putInt((int)crc.getValue());
        return file.array();
    }
}
