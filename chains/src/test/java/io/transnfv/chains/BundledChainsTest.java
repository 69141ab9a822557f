package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.vnf.api.VnfRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped chains: {@code chains/*.yaml} validate against the real built-in VNF types,
 * and the build packages each of them as a class-path resource.
 */
class BundledChainsTest
{
    /** Surefire runs with the module directory as the working directory. */
    private static final Path MODULE = Path.of("").toAbsolutePath();

    private static List<Path> shippedFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(MODULE))
        {
            return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @Test
    void shouldShipEveryBundledChainAsAFileAndAsAResource() throws IOException
    {
        final List<String> names = shippedFiles().stream()
            .map(f -> f.getFileName().toString().replace(".yaml", "")).sorted().toList();
        assertEquals(ChainLoader.BUNDLED.stream().sorted().toList(), names);
        assertTrue(ChainLoader.BUNDLED.contains(ChainLoader.DEFAULT_CHAIN));
    }

    @Test
    void shouldPackageEveryChainFileAsAResource() throws IOException
    {
        for (final Path file : shippedFiles())
        {
            final String name = file.getFileName().toString();
            assertEquals(Files.readString(file), ChainLoader.readResource(ChainLoader.BUNDLED_DIRECTORY + name),
                () -> name + ": the build must package chains/" + name + " as a resource");
        }
    }

    @Test
    void shouldValidateEveryShippedChainAgainstTheBuiltInVnfTypes() throws IOException
    {
        final ChainLoader loader = new ChainLoader(VnfRegistry.load());
        for (final Path file : shippedFiles())
        {
            final List<ChainError> errors = loader.validate(MODULE.relativize(file));
            assertTrue(errors.isEmpty(), () -> String.join("\n", errors.stream().map(ChainError::format).toList()));
        }
    }

    @Test
    void shouldLoadTheDefaultChainFromTheClassPath()
    {
        final ChainSpec chain = new ChainLoader().loadBundled(ChainLoader.DEFAULT_CHAIN);
        assertEquals("nat-lb-td", chain.name());
        assertEquals(List.of("nat", "load-balancer", "trojan-detector"), chain.vnfs().stream().map(v -> v.type()).toList());
        assertTrue(chain.settings().traffic().generator().packets() >= 1_000_000L);
    }

    @Test
    void shouldNameTheBundledChainsWhenAskedForAnUnknownOne()
    {
        final IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> new ChainLoader().loadBundled("nat-lb"));
        assertTrue(e.getMessage().contains("nat-lb-td"), e.getMessage());
    }
}
