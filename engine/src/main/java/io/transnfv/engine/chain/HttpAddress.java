package io.transnfv.engine.chain;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Where a run's HTTP control plane listens ({@code --http}, YAML {@code settings.http}), as a
 * user writes it: {@code PORT}, {@code HOST:PORT} or {@code [IPv6]:PORT}. Without a host it is
 * the loopback address, so a run is reachable from its own machine only; every interface
 * ({@code 0.0.0.0}, {@code [::]}) only when written out.
 *
 * @param host the host or address to bind, as written (or {@code 127.0.0.1}).
 * @param port the TCP port, 0 for one the system picks.
 */
public record HttpAddress(String host, int port)
{
    /** The host the control plane binds when none is written. */
    public static final String LOOPBACK = "127.0.0.1";

    /** What to write instead of an address that cannot be listened on. */
    public static final String FIX = "write PORT (on " + LOOPBACK + "), HOST:PORT or [IPv6]:PORT, e.g. 9100 or 127.0.0.1:9100";

    /**
     * @param text {@code PORT}, {@code HOST:PORT} or {@code [IPv6]:PORT}.
     * @return the address.
     * @throws IllegalArgumentException with what is wrong and how to fix it.
     */
    public static HttpAddress parse(final String text)
    {
        final String why = problem(text);
        if (why != null)
        {
            throw new IllegalArgumentException("'" + text + "' is not an address to listen on: " + why + "; fix: " + FIX);
        }
        final String trimmed = text.trim();
        if (trimmed.startsWith("["))
        {
            final int close = trimmed.indexOf("]:");
            return new HttpAddress(trimmed.substring(1, close), Integer.parseInt(trimmed.substring(close + 2)));
        }
        final int colon = trimmed.lastIndexOf(':');
        return new HttpAddress(colon <= 0 ? LOOPBACK : trimmed.substring(0, colon), Integer.parseInt(trimmed.substring(colon + 1)));
    }

    /** @return why {@code text} is not an address to listen on, or null if it is one. */
    public static String problem(final String text)
    {
        final String trimmed = text.trim();
        final String host;
        final String port;
        if (trimmed.startsWith("["))
        {
            final int close = trimmed.indexOf("]:");
            if (close < 0)
            {
                return "an IPv6 address needs its port after ']:'";
            }
            host = trimmed.substring(1, close);
            port = trimmed.substring(close + 2);
        }
        else
        {
            final int colon = trimmed.lastIndexOf(':');
            if (colon >= 0 && trimmed.indexOf(':') != colon)
            {
                return "write an IPv6 address in brackets, e.g. [::1]:9100";
            }
            host = colon <= 0 ? LOOPBACK : trimmed.substring(0, colon);
            port = trimmed.substring(colon + 1);
        }
        if (host.isEmpty())
        {
            return "the host is empty";
        }
        final int number;
        try
        {
            number = Integer.parseInt(port);
        }
        catch (final NumberFormatException e)
        {
            return "'" + port + "' is not a port number";
        }
        if (number < 0 || number > 65_535)
        {
            return "port " + number + " is not between 0 and 65535";
        }
        return null;
    }

    /**
     * @return the socket address to bind.
     * @throws IllegalArgumentException if the host cannot be resolved.
     */
    public InetSocketAddress resolve()
    {
        try
        {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalArgumentException("cannot resolve the host '" + host + "' to listen on; fix: give an address"
                + " of this machine, e.g. " + LOOPBACK, e);
        }
    }

    /** @return true if it binds every interface ({@code 0.0.0.0} or {@code ::}): anyone who reaches the machine reaches it. */
    public boolean everyInterface()
    {
        return resolve().getAddress().isAnyLocalAddress();
    }

    @Override
    public String toString()
    {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }
}
