package io.transnfv.dpdk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Finds and loads {@code libtransnfv_dpdk.so}: from the path in the system property
 * {@value #PATH_PROPERTY} if set, else from the class path resource
 * {@value #RESOURCE} (inside this module's jar and the shaded CLI jar), extracted to a
 * temporary file. The build leaves {@value #REASON_RESOURCE} instead when it could not
 * build the library, saying why.
 */
final class NativeLibrary
{
    /** System property naming the library file to load instead of the bundled one. */
    static final String PATH_PROPERTY = "transnfv.dpdk.library";
    static final String RESOURCE = "/native/linux-x86_64/libtransnfv_dpdk.so";
    static final String REASON_RESOURCE = "/native/linux-x86_64/UNAVAILABLE.txt";

    private NativeLibrary()
    {
    }

    /** @return null when loaded, else why the library is unavailable. */
    static String load()
    {
        final String explicit = System.getProperty(PATH_PROPERTY);
        try
        {
            if (explicit != null)
            {
                System.load(Path.of(explicit).toAbsolutePath().toString());
                return null;
            }
            if (!"Linux".equals(System.getProperty("os.name")) || !"amd64".equals(System.getProperty("os.arch")))
            {
                return "the DPDK front end is built for Linux x86-64 only, this is "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch");
            }
            try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE))
            {
                if (in == null)
                {
                    return notBuiltReason();
                }
                final Path file = Files.createTempFile("libtransnfv_dpdk", ".so");
                file.toFile().deleteOnExit();
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toString());
                return null;
            }
        }
        catch (final IOException | UnsatisfiedLinkError | SecurityException e)
        {
            return "cannot load the native library: " + e.getMessage()
                + " (are DPDK's runtime libraries installed? apt-get install libdpdk-dev)";
        }
    }

    private static String notBuiltReason() throws IOException
    {
        try (InputStream in = NativeLibrary.class.getResourceAsStream(REASON_RESOURCE))
        {
            final String why = in == null ? "this build has no native library" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return why + "; install libdpdk-dev and pkg-config (apt-get install -y libdpdk-dev pkg-config) and rebuild";
        }
    }
}
