package io.transnfv.chains;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.vnf.api.VnfRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Reads chain YAML files into {@link ChainSpec}s, checking them against the VNF types of a
 * {@link VnfRegistry}. Every problem found is reported with {@code file:line:column} and
 * what to write instead; {@code validate} returns them all, {@code load} and {@code parse}
 * throw a {@link ChainValidationException} holding them all. The format is documented in
 * {@code docs/chain-yaml.md}.
 *
 * <p>Setup only. An instance holds nothing but its registry, so one may be shared; each
 * call works on its own state.
 */
public final class ChainLoader
{
    /** Where the bundled chains live on the class path. */
    public static final String BUNDLED_DIRECTORY = "chains/";

    /** The chains shipped in this module, by name (file name without {@code .yaml}). */
    public static final List<String> BUNDLED = List.of("nat-lb-td", "lb", "fw-portscan-monitor", "fw-scan-block", "tenants");

    /** The bundled multi-tenant chain: three tenants on the other bundled chains (docs/tenants.md). */
    public static final String TENANTS_CHAIN = "tenants";

    /** The bundled chain whose VNFs share a table (docs/chain-yaml.md): no tenant may name it. */
    public static final String SHARED_TABLES_CHAIN = "fw-scan-block";

    /** The bundled chain a run uses when given none: the paper's NAT → LB → TD chain. */
    public static final String DEFAULT_CHAIN = "nat-lb-td";

    private static final Comparator<ChainError> FILE_ORDER =
        Comparator.comparingInt(ChainError::line).thenComparingInt(ChainError::column);

    private final VnfRegistry registry;

    /** A loader for the VNF types on this class's class path. */
    public ChainLoader()
    {
        this(VnfRegistry.load());
    }

    /** @param registry the VNF types chains may use. */
    public ChainLoader(final VnfRegistry registry)
    {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** @return the VNF types this loader accepts. */
    public VnfRegistry registry()
    {
        return registry;
    }

    /**
     * Reads and validates a chain file. Relative pcap paths resolve against its directory.
     *
     * @param file the YAML file; errors name it as given.
     * @return the chain.
     * @throws ChainValidationException with every problem, including a missing file.
     */
    public ChainSpec load(final Path file)
    {
        final List<ChainError> errors = new ArrayList<>();
        final ChainSpec chain = check(file, errors);
        if (chain == null)
        {
            throw new ChainValidationException(errors);
        }
        return chain;
    }

    /**
     * Validates a chain file and returns every problem found.
     *
     * @param file the YAML file.
     * @return the errors in file order; empty if the chain is valid.
     */
    public List<ChainError> validate(final Path file)
    {
        final List<ChainError> errors = new ArrayList<>();
        check(file, errors);
        return errors;
    }

    /**
     * Parses and validates chain text. Relative pcap paths resolve against the working
     * directory.
     *
     * @param yaml       the chain.
     * @param sourceName the name errors carry, e.g. the file it came from.
     * @return the chain.
     * @throws ChainValidationException with every problem.
     */
    public ChainSpec parse(final String yaml, final String sourceName)
    {
        return parse(yaml, sourceName, null);
    }

    /**
     * Parses and validates chain text.
     *
     * @param yaml          the chain.
     * @param sourceName    the name errors carry.
     * @param baseDirectory where relative pcap paths resolve; null for the working directory.
     * @return the chain.
     * @throws ChainValidationException with every problem.
     */
    public ChainSpec parse(final String yaml, final String sourceName, final Path baseDirectory)
    {
        final List<ChainError> errors = new ArrayList<>();
        final ChainSpec chain = check(yaml, sourceName, baseDirectory, errors);
        if (chain == null)
        {
            throw new ChainValidationException(errors);
        }
        return chain;
    }

    /**
     * Validates chain text and returns every problem found. Relative pcap paths resolve
     * against the working directory.
     *
     * @param yaml       the chain.
     * @param sourceName the name errors carry.
     * @return the errors in file order; empty if the chain is valid.
     */
    public List<ChainError> validate(final String yaml, final String sourceName)
    {
        final List<ChainError> errors = new ArrayList<>();
        check(yaml, sourceName, null, errors);
        return errors;
    }

    /**
     * Loads a chain shipped inside this module's jar, so a run needs no working directory.
     *
     * @param name one of {@link #BUNDLED}, with or without {@code .yaml}.
     * @return the chain.
     * @throws IllegalArgumentException listing the bundled chains if there is no such chain.
     * @throws ChainValidationException if it does not validate against the registry.
     */
    public ChainSpec loadBundled(final String name)
    {
        final String bare = name.endsWith(".yaml") ? name.substring(0, name.length() - ".yaml".length()) : name;
        final String resource = BUNDLED_DIRECTORY + bare + ".yaml";
        final String text = readResource(resource);
        if (text == null)
        {
            final String closest = ClosestName.of(bare, BUNDLED);
            throw new IllegalArgumentException("no bundled chain '" + name + "'"
                + (closest == null ? "" : "; did you mean '" + closest + "'?")
                + " (bundled: " + String.join(", ", BUNDLED) + ")");
        }
        return parse(text, "classpath:" + resource, null);
    }

    /**
     * @param resource a class path resource, e.g. {@code chains/lb.yaml}.
     * @return its text, or null if there is none.
     */
    static String readResource(final String resource)
    {
        try (InputStream in = ChainLoader.class.getClassLoader().getResourceAsStream(resource))
        {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private ChainSpec check(final Path file, final List<ChainError> errors)
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException e)
        {
            errors.add(new ChainError(file.toString(), 1, 1, "chain file not found: " + file.toAbsolutePath(),
                "check the path, or name a bundled chain: " + String.join(", ", BUNDLED)));
            return null;
        }
        catch (final CharacterCodingException e)
        {
            errors.add(new ChainError(file.toString(), 1, 1, "the chain file is not UTF-8 text (a binary file, or a capture?)",
                "name the chain's YAML file; a capture goes after --pcap"));
            return null;
        }
        catch (final AccessDeniedException e)
        {
            errors.add(new ChainError(file.toString(), 1, 1, "cannot read the chain file: permission denied",
                "make it readable (chmod +r " + file + ") or copy it somewhere readable"));
            return null;
        }
        catch (final IOException e)
        {
            final String reason = Files.isDirectory(file) ? "it is a directory"
                : e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason()
                : String.valueOf(e.getMessage());
            errors.add(new ChainError(file.toString(), 1, 1, "cannot read the chain file: " + reason,
                Files.isDirectory(file) ? "name a chain's YAML file inside it, or a bundled chain: " + String.join(", ", BUNDLED)
                    : "check the file and the device it is on"));
            return null;
        }
        final Path directory = file.toAbsolutePath().getParent();
        return check(text, file.toString(), directory, errors);
    }

    private ChainSpec check(final String yaml, final String sourceName, final Path baseDirectory, final List<ChainError> errors)
    {
        final int errorsBefore = errors.size();
        final ChainErrors collector = new ChainErrors(sourceName, errors);
        final YamlNode root = new YamlTreeReader(collector).read(yaml);
        ChainSpec chain = null;
        if (root != null)
        {
            chain = new ChainReader(registry, collector, baseDirectory).read(root);
        }
        errors.sort(FILE_ORDER);
        return errors.size() > errorsBefore ? null : chain;
    }
}
