package io.transnfv.engine.source;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Locates the test traces under {@code src/test/resources/traces}. */
final class Traces
{
    private Traces()
    {
    }

    static Path trace(final String name)
    {
        final URL url = Traces.class.getResource("/traces/" + name);
        if (url == null)
        {
            throw new IllegalStateException("missing test trace " + name);
        }
        try
        {
            return Path.of(url.toURI());
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
