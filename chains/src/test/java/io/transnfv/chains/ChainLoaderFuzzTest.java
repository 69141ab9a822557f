package io.transnfv.chains;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the chain YAML loader (Jazzer): any text validates to a list of
 * errors, each with a position and a message, and never throws; {@code parse} throws only
 * {@link ChainValidationException}, carrying the same errors. The seeds are the bundled
 * chains (copied into {@code ChainLoaderFuzzTestInputs} by the build); without
 * {@code JAZZER_FUZZ} only they run.
 */
class ChainLoaderFuzzTest
{
    private final ChainLoader loader = new ChainLoader();

    @FuzzTest
    void shouldAnswerAnyTextWithAChainOrErrorsAndNeverThrowAnythingElse(final byte[] input)
    {
        final String yaml = new String(input, StandardCharsets.UTF_8);
        final List<ChainError> errors = loader.validate(yaml, "fuzz.yaml");
        for (final ChainError error : errors)
        {
            assertNotNull(error.message());
            assertFalse(error.message().isEmpty());
            assertTrue(error.line() >= 1 && error.column() >= 1, "positions are 1-based: " + error);
        }
        try
        {
            assertNotNull(loader.parse(yaml, "fuzz.yaml"));
            assertTrue(errors.isEmpty(), "parse accepted what validate refused: " + errors);
        }
        catch (final ChainValidationException e)
        {
            assertEquals(errors, e.errors());
        }
    }
}
