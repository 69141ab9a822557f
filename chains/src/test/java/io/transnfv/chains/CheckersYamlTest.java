package io.transnfv.chains;

import io.transnfv.engine.chain.CheckerSettings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code settings: checkers:} section: read, or refused at file:line with a fix. */
class CheckersYamlTest
{
    private static final String CHAIN = """
        name: x
        vnfs:
          - name: nat
            type: nat
          - name: scan
            type: port-scan-detector
        edges:
          - { from: nat, to: scan }
        settings:
          checkers: %s
        """;

    private final ChainLoader loader = new ChainLoader();

    private List<ChainError> errors(final String checkers)
    {
        return loader.validate(CHAIN.formatted(checkers), "t.yaml");
    }

    private static ChainError single(final List<ChainError> errors)
    {
        assertEquals(1, errors.size(), () -> "expected one error, got:\n" + errors.stream().map(ChainError::format)
            .collect(Collectors.joining("\n")));
        return errors.get(0);
    }

    @Test
    void shouldReadTheEnabledCheckersAndTheirPeriod()
    {
        assertEquals(new CheckerSettings(List.of("nat.port-has-its-mapping"), 500_000_000L, 0),
            loader.parse(CHAIN.formatted("{ enabled: [nat.port-has-its-mapping], every: 500ms }"), "t.yaml").settings().checkers());
        assertEquals(new CheckerSettings(List.of("nat"), 0, 4),
            loader.parse(CHAIN.formatted("{ enabled: [nat], every: 4 }"), "t.yaml").settings().checkers());
        assertEquals(new CheckerSettings(List.of(), 0, 0),
            loader.parse(CHAIN.formatted("{ enabled: [], every: end }"), "t.yaml").settings().checkers());
        assertEquals(CheckerSettings.defaults(), loader.parse("name: x\nvnfs:\n  - { name: nat, type: nat }\n", "t.yaml").settings().checkers());
    }

    @Test
    void shouldSuggestTheClosestCheckerForAnUnknownOne()
    {
        final ChainError error = single(errors("{ enabled: [nat.port-owned-by-its-maping] }"));
        assertEquals("10:25", error.position());
        assertEquals("unknown checker 'nat.port-owned-by-its-maping'", error.message());
        assertTrue(error.fix().startsWith("did you mean 'nat.port-owned-by-its-mapping'?"), error.fix());
        assertTrue(error.fix().contains("a VNF's name alone enables all its checkers"), error.fix());
    }

    @Test
    void shouldRefuseAVnfThatDeclaresNoCheckers()
    {
        final ChainError error = single(errors("{ enabled: [nat, scan] }"));
        assertEquals("10:30", error.position());
        assertEquals("VNF 'scan' declares no state checkers", error.message());
        assertTrue(error.fix().contains("nat.mappings-within-pool"), error.fix());
    }

    @Test
    void shouldRefuseABadPeriodWithWhatToWrite()
    {
        for (final String bad : List.of("0", "fast", "-1s", "0ms"))
        {
            final ChainError error = single(errors("{ every: " + bad + " }"));
            assertEquals("10:22", error.position(), bad);
            assertTrue(error.message().startsWith("bad checkers every"), error.message());
            assertTrue(error.fix().contains("a duration of packet time (e.g. 1s or 500ms) or a whole number of batches"), error.fix());
        }
    }

    @Test
    void shouldRefuseAnUnknownKeyAndAnEnabledThatIsNoList()
    {
        final ChainError key = single(errors("{ evry: 1s }"));
        assertEquals("10:15", key.position());
        assertTrue(key.message().contains("unknown key 'evry'"), key.message());
        assertTrue(key.fix().contains("did you mean 'every'?"), key.fix());

        final ChainError list = single(errors("{ enabled: nat }"));
        assertEquals("10:24", list.position());
        assertTrue(list.message().contains("'checkers enabled'"), list.message());
    }
}
