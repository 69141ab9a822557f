package io.transnfv.chains;

import io.transnfv.engine.chain.CheckerSettings;
import io.transnfv.engine.chain.FaultSettings;
import io.transnfv.engine.chain.FragmentSettings;
import io.transnfv.engine.chain.HttpAddress;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.StoreSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.checkpoint.CheckpointSettings;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.fragment.FragmentTracker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the {@code settings:} section into {@link RunSettings}: punctuation, executor
 * threads, the output file, fragment tracking, fault handling ({@link FaultSettings}), the
 * state checkers ({@link CheckersReader}), the control plane's address, and
 * the traffic (through {@link TrafficReader}); what is not written keeps its default. Setup
 * only.
 */
final class SettingsReader
{
    static final List<String> SETTINGS_KEYS = List.of("punctuation", "executor_threads", "traffic", "output", "fragments", "faults",
        "checkpoint", "checkers", "http", "store", "chronicle", "redis");
    static final List<String> FAULTS_KEYS = List.of("error_bound", "error_window", "batch_deadline");
    static final List<String> CHECKPOINT_KEYS = List.of("dir", "every", "full_every");
    static final List<String> PUNCTUATION_KEYS = List.of("transactions", "interval", "latency_target");
    static final List<String> FRAGMENTS_KEYS = List.of("timeout", "max_held");

    private final ChainErrors errors;
    private final TrafficReader traffic;
    private final StoresReader stores;
    private final CheckersReader checkers;

    /**
     * @param errors        where problems are added.
     * @param baseDirectory where relative pcap paths resolve, or null for the working directory.
     */
    SettingsReader(final ChainErrors errors, final Path baseDirectory)
    {
        this.errors = errors;
        this.traffic = new TrafficReader(errors, baseDirectory);
        this.stores = new StoresReader(errors);
        this.checkers = new CheckersReader(errors);
    }

    /** @return the reader of the checker settings, to check the names it read once the VNFs are read. */
    CheckersReader checkers()
    {
        return checkers;
    }

    /** @return the reader of the store settings, to check them against the tables once the VNFs are read. */
    StoresReader stores()
    {
        return stores;
    }

    /**
     * @param node the section, or null if the chain has none.
     * @return the settings (the defaults if there is no section), or null if the section is unusable.
     */
    RunSettings read(final YamlNode node)
    {
        final RunSettings defaults = RunSettings.defaults();
        if (ChainErrors.isAbsent(node))
        {
            return defaults;
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'settings'",
            "write a map with punctuation, executor_threads, traffic, output and fragments");
        if (map == null)
        {
            return null;
        }
        errors.checkKeys(map, SETTINGS_KEYS, "in 'settings'");
        int transactions = defaults.punctuationTransactions();
        long intervalNs = defaults.punctuationIntervalNs();
        long latencyTargetNs = defaults.latencyTargetNs();
        final YamlNode punctuationNode = map.get("punctuation");
        if (punctuationNode != null)
        {
            final YamlNode.MapNode punctuation = errors.expectMap(punctuationNode, "'punctuation'",
                "write '{ transactions: 64, interval: 1ms }'");
            if (punctuation != null)
            {
                errors.checkKeys(punctuation, PUNCTUATION_KEYS, "in 'punctuation'");
                final YamlNode t = punctuation.get("transactions");
                if (t != null)
                {
                    transactions = (int)errors.boundedNumber(t, "punctuation transactions", 1, Integer.MAX_VALUE, "", transactions);
                }
                final YamlNode interval = punctuation.get("interval");
                if (interval != null)
                {
                    intervalNs = duration(interval, "punctuation interval", intervalNs);
                }
                final YamlNode target = punctuation.get("latency_target");
                if (target != null)
                {
                    latencyTargetNs = duration(target, "punctuation latency_target", latencyTargetNs);
                }
            }
        }
        int threads = defaults.executorThreads();
        final YamlNode threadsNode = map.get("executor_threads");
        if (threadsNode != null)
        {
            threads = (int)errors.boundedNumber(threadsNode, "executor_threads", 0, RunSettings.MAX_EXECUTOR_THREADS, " (0 = one per core)", threads);
        }
        final TrafficSpec trafficSpec = traffic.read(map.get("traffic"), defaults.traffic());
        Path output = null;
        final YamlNode outputNode = map.get("output");
        if (!ChainErrors.isAbsent(outputNode))
        {
            output = outputFile(outputNode);
        }
        final FragmentSettings fragments = fragments(map.get("fragments"), defaults.fragments());
        final FaultSettings faults = faults(map.get("faults"), defaults.faults());
        final YamlNode checkpointNode = map.get("checkpoint");
        final CheckpointSettings checkpoint = ChainErrors.isAbsent(checkpointNode) ? null : checkpoint(checkpointNode);
        final CheckerSettings checkerSettings = checkers.read(map.get("checkers"));
        HttpAddress http = defaults.http();
        final YamlNode httpNode = map.get("http");
        if (!ChainErrors.isAbsent(httpNode))
        {
            final String address = errors.optionalText(httpNode, "'http'");
            if (address != null)
            {
                final String problem = HttpAddress.problem(address);
                if (problem != null)
                {
                    errors.add(httpNode, "bad http '" + address + "': " + problem, HttpAddress.FIX);
                }
                else
                {
                    http = HttpAddress.parse(address);
                }
            }
        }
        final StoreSettings storeSettings = stores.read(map);
        if (trafficSpec == null)
        {
            return null;
        }
        return new RunSettings(transactions, intervalNs, threads, trafficSpec, output, latencyTargetNs, fragments, faults,
            checkpoint, checkerSettings, http, storeSettings);
    }

    private FragmentSettings fragments(final YamlNode node, final FragmentSettings defaults)
    {
        if (ChainErrors.isAbsent(node))
        {
            return defaults;
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'fragments'", "write '{ timeout: 1s, max_held: 64 }'");
        if (map == null)
        {
            return defaults;
        }
        errors.checkKeys(map, FRAGMENTS_KEYS, "in 'fragments'");
        long timeoutNs = defaults.timeoutNs();
        final YamlNode timeout = map.get("timeout");
        if (timeout != null)
        {
            timeoutNs = duration(timeout, "fragment timeout", timeoutNs);
        }
        int maxHeld = defaults.maxHeld();
        final YamlNode maxHeldNode = map.get("max_held");
        if (maxHeldNode != null)
        {
            maxHeld = (int)errors.boundedNumber(maxHeldNode, "fragments max_held", 0, FragmentTracker.MAX_HELD_LIMIT,
                " (0 = hold none: a fragment before its first is dropped)", maxHeld);
        }
        return new FragmentSettings(timeoutNs, maxHeld);
    }

    private FaultSettings faults(final YamlNode node, final FaultSettings defaults)
    {
        if (ChainErrors.isAbsent(node))
        {
            return defaults;
        }
        final YamlNode.MapNode map = errors.expectMap(node, "'faults'",
            "write '{ error_bound: 1%, error_window: 10s, batch_deadline: 10s }'");
        if (map == null)
        {
            return defaults;
        }
        errors.checkKeys(map, FAULTS_KEYS, "in 'faults'");
        double bound = defaults.errorBound();
        final YamlNode boundNode = map.get("error_bound");
        if (boundNode != null)
        {
            final String text = ChainErrors.scalarText(boundNode);
            try
            {
                bound = FaultSettings.parseShare(text == null ? "" : text);
            }
            catch (final IllegalArgumentException e)
            {
                errors.add(boundNode, "bad error_bound " + boundNode.describe(),
                    "write the share of packets that may fail in VNF code, e.g. 1% or 0.01 (100% never stops the run)");
            }
        }
        long windowNs = defaults.errorWindowNs();
        final YamlNode windowNode = map.get("error_window");
        if (windowNode != null)
        {
            windowNs = duration(windowNode, "error_window", windowNs);
        }
        long deadlineNs = defaults.batchDeadlineNs();
        final YamlNode deadlineNode = map.get("batch_deadline");
        if (deadlineNode != null)
        {
            final String text = ChainErrors.scalarText(deadlineNode);
            deadlineNs = "0".equals(text == null ? null : text.trim()) ? 0 : duration(deadlineNode, "batch_deadline", deadlineNs);
        }
        return new FaultSettings(bound, windowNs, deadlineNs);
    }

    /** {@code checkpoint: { dir: ckpt, every: 100 | 500ms, full_every: 10 }}; null (and an error) if unusable. */
    private CheckpointSettings checkpoint(final YamlNode node)
    {
        final YamlNode.MapNode map = errors.expectMap(node, "'checkpoint'", "write '{ dir: checkpoints, every: 100, full_every: 10 }'");
        if (map == null)
        {
            return null;
        }
        errors.checkKeys(map, CHECKPOINT_KEYS, "in 'checkpoint'");
        final YamlNode dirNode = map.get("dir");
        final String dir = ChainErrors.isAbsent(dirNode) ? null : ChainErrors.scalarText(dirNode);
        if (dir == null || dir.isBlank())
        {
            errors.add(dirNode == null ? node : dirNode, "checkpoint needs a 'dir'", "write the directory the checkpoints go to,"
                + " e.g. 'dir: checkpoints' (relative paths resolve against the working directory)");
        }
        long[] interval = {CheckpointSettings.DEFAULT_EVERY_BATCHES, 0};
        final YamlNode everyNode = map.get("every");
        if (!ChainErrors.isAbsent(everyNode))
        {
            try
            {
                interval = CheckpointSettings.parseInterval(String.valueOf(ChainErrors.scalarText(everyNode)));
            }
            catch (final IllegalArgumentException e)
            {
                errors.add(everyNode, "bad checkpoint every " + everyNode.describe(),
                    "write a number of batches (e.g. 100) or a duration of packet time (e.g. 500ms)");
                return null;
            }
        }
        int fullEvery = CheckpointSettings.DEFAULT_FULL_EVERY;
        final YamlNode fullNode = map.get("full_every");
        if (!ChainErrors.isAbsent(fullNode))
        {
            fullEvery = (int)errors.boundedNumber(fullNode, "checkpoint full_every", 1, Integer.MAX_VALUE, " (1 = every checkpoint full)",
                fullEvery);
        }
        return dir == null || dir.isBlank() ? null : new CheckpointSettings(Path.of(dir), interval[0], interval[1], fullEvery);
    }

    private long duration(final YamlNode node, final String what, final long fallback)
    {
        final String text = ChainErrors.scalarText(node);
        try
        {
            if (text != null)
            {
                final long ns = VnfConfig.parseDurationNs(text);
                if (ns > 0)
                {
                    return ns;
                }
            }
        }
        catch (final IllegalArgumentException e)
        {
            // reported below with what to write
        }
        errors.add(node, "bad " + what + " " + node.describe(),
            "write a positive duration with a unit: ns, us, ms, s, m or h, e.g. 1ms");
        return fallback;
    }

    private Path outputFile(final YamlNode node)
    {
        final String text = ChainErrors.scalarText(node);
        if (text == null || text.isBlank())
        {
            errors.add(node, "bad output " + node.describe(), "write the path of the .pcap file to write");
            return null;
        }
        final Path file = Path.of(text);
        final Path directory = file.toAbsolutePath().getParent();
        if (directory != null && !Files.isDirectory(directory))
        {
            errors.add(node, "output directory does not exist: " + directory,
                "create it, or write a path in an existing directory (relative paths resolve against the working directory)");
            return null;
        }
        return file;
    }
}
