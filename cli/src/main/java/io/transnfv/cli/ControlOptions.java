package io.transnfv.cli;

import io.transnfv.cli.http.ControlServer;
import io.transnfv.cli.http.RunView;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.vnf.api.VnfConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintStream;

/**
 * Watching and steering a run while it goes: {@code --http HOST:PORT} (the control plane, see
 * {@code docs/operations.md}) and {@code --stats-interval DURATION} (a one-line rate summary).
 */
final class ControlOptions
{
    @Option(names = "--http", paramLabel = "[HOST:]PORT",
        description = {"Serve the run's control plane over HTTP: GET /metrics (Prometheus), GET /status (JSON),"
            + " POST /stop (as SIGTERM). A bare PORT listens on 127.0.0.1 only; every interface only when written"
            + " out (0.0.0.0:PORT). Port 0 picks a free one. The address is printed on stderr. Overrides the"
            + " chain's settings.http."})
    String http;

    @Option(names = "--stats-interval", paramLabel = "DURATION",
        description = {"Print a one-line rate summary on stderr every DURATION (e.g. 10s, 500ms) instead of the"
            + " progress bar: packets, forwarded, dropped and alerts with their rates, latency, state entries."})
    String statsInterval;

    /**
     * @return the address {@code --http} asks for, else the chain's {@code settings.http}, or null;
     *         a usage error for one that cannot work.
     */
    HttpAddress httpAddress(final CommandSpec spec, final RunSettings settings)
    {
        if (http == null)
        {
            return settings.http();
        }
        try
        {
            return HttpAddress.parse(http);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ParameterException(spec.commandLine(), "--http: " + e.getMessage());
        }
    }

    /** @return the stats line's interval in nanoseconds, 0 for none; a usage error for a bad one. */
    long statsIntervalNs(final CommandSpec spec)
    {
        if (statsInterval == null)
        {
            return 0;
        }
        final long ns;
        try
        {
            ns = VnfConfig.parseDurationNs(statsInterval);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ParameterException(spec.commandLine(), "--stats-interval: " + e.getMessage() + "; fix: e.g. --stats-interval 10s");
        }
        if (ns < 1_000_000)
        {
            throw new ParameterException(spec.commandLine(), "--stats-interval must be at least 1ms, got " + statsInterval
                + "; fix: e.g. --stats-interval 10s");
        }
        return ns;
    }

    /**
     * Starts the control plane if {@code --http} or the chain's {@code settings.http} asks for it,
     * telling the user where on {@code err}.
     *
     * @return the server, to close once the command has written its outputs; null when none is asked for.
     */
    ControlServer start(final CommandSpec spec, final RunSettings settings, final RunView view, final PrintStream err)
    {
        final HttpAddress address = httpAddress(spec, settings);
        if (address == null)
        {
            return null;
        }
        final ControlServer server = ControlServer.start(address, view, err);
        err.println("transnfv: control plane on " + server.url() + "/ (GET /metrics, GET /status, GET /state/<vnf>/<table>?key=KEY,"
            + " GET /flows?tuple=TUPLE, GET /events, POST /params/<vnf>, POST /stop)");
        if (address.everyInterface())
        {
            err.println("transnfv: warning: the control plane listens on every interface: whoever reaches this machine can"
                + " read the run's figures and stop it; fix: a bare port (--http " + address.port() + ") listens on "
                + HttpAddress.LOOPBACK + " only");
        }
        err.flush();
        return server;
    }

    /** @return the periodic stats line if {@code --stats-interval} was given, else null. */
    StatsLine statsLine(final CommandSpec spec, final ChainExecutor executor, final PrintStream err)
    {
        final long intervalNs = statsIntervalNs(spec);
        return intervalNs == 0 ? null : StatsLine.start(executor, intervalNs, err);
    }
}
