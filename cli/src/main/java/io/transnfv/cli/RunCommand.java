package io.transnfv.cli;

import io.transnfv.cli.http.ControlServer;
import io.transnfv.cli.http.RunView;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TableCapacities;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PcapWriter;
import io.transnfv.engine.fault.FaultLog;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.report.RunReport;
import io.transnfv.engine.report.RunReport.OutputPaths;
import io.transnfv.engine.source.PacedSource;
import io.transnfv.engine.source.PacingRate;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.PcapSource;
import io.transnfv.engine.source.PrefixSource;
import io.transnfv.flink.job.FlinkRunResult;
import io.transnfv.flink.job.FlinkRunner;
import io.transnfv.flink.job.FlinkSettings;
import io.transnfv.flink.job.FlinkStop;
import io.transnfv.vnf.instance.TableCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedWriter;
import java.io.Flushable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code transnfv run}: runs a chain over its traffic and prints the summary. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {
        "Run a chain over generated traffic or a capture file and print a summary.",
        "With no arguments: the bundled nat-lb-td chain on 1,000,000 generated packets."})
final class RunCommand implements Callable<Integer>
{
    @Mixin
    ChainOptions chainOptions;

    @Mixin
    ExecutorOptions executorOptions;

    @Mixin
    DpdkOptions dpdkOptions;

    @Option(names = "--out", paramLabel = "FILE", description = "Write forwarded packets to this pcap file.")
    Path out;

    @Mixin
    CheckpointOptions checkpointOptions;

    @Mixin
    ControlOptions controlOptions;

    @Mixin
    FlinkOptions flinkOptions;

    @Mixin
    FlinkSavepointOptions savepointOptions;

    @Option(names = "--json", description = "Print the summary as JSON instead of text.")
    boolean json;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the summary as JSON to FILE.")
    Path report;

    @Option(names = "--param-changes-out", paramLabel = "FILE",
        description = "Write the VNF parameters changed during the run (POST /params/<vnf>), each with the packet it took"
            + " effect at, to FILE as a change script for verify --param-changes.")
    Path paramChangesOut;

    @Option(names = "--records", paramLabel = "FILE",
        description = "Write one record per packet (verdict, path, rewritten 5-tuple, tags, alerts) to FILE.")
    Path records;

    @Option(names = "--state", paramLabel = "FILE", description = "Write the final state dump to FILE.")
    Path state;

    @Option(names = "--fault-log", paramLabel = "FILE", defaultValue = "transnfv-faults.log",
        description = "Where the first stack trace of each kind of fault in VNF code goes, if VNF code threw"
            + " (default: ${DEFAULT-VALUE}).")
    Path faultLog;

    @Option(names = "--no-progress", description = "Do not show progress on stderr.")
    boolean noProgress;

    @Option(names = "--warmup", paramLabel = "PACKETS", defaultValue = "0",
        description = {"Before the measured run, run the first PACKETS packets of the traffic through a separate "
            + "engine and discard everything it did, so the summary measures a warm JVM (default: 0, none). "
            + "With --rate the warm-up is paced too. The run's outputs and final state are the same as without it. "
            + "Not with --dpdk."})
    long warmup;

    @Option(names = "--rate", paramLabel = "PPS|original",
        description = {"Offer the packets in wall time: PPS packets per second (e.g. 250000, 250k, 1.5M), or 'original'"
            + " for a capture's own inter-packet timing. Packets that arrive while the receive ring is full are dropped"
            + " before the chain and counted as rx missed; latency then includes the wait in the ring. Default: as fast"
            + " as the chain takes them. Not with --dpdk (a port is paced by its wire)."})
    String rate;

    @Option(names = "--rx-ring", paramLabel = "SLOTS", defaultValue = "" + PacedSource.DEFAULT_RX_RING_SLOTS,
        description = "With --rate: slots of the receive ring, a power of two (default: ${DEFAULT-VALUE}).")
    int rxRingSlots;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException
    {
        final ChainSpec resolved = chainOptions.resolve();
        final ChainSpec chain = out == null ? resolved : resolved.withSettings(resolved.settings().withOutPcap(out));
        if (warmup < 0)
        {
            throw new ParameterException(spec.commandLine(), "--warmup must be >= 0: " + warmup);
        }
        if (warmup > 0 && dpdkOptions.enabled())
        {
            throw new ParameterException(spec.commandLine(), "--warmup cannot be used with --dpdk: a port's packets cannot be read twice");
        }
        savepointOptions.check(flinkOptions.enabled(), flinkOptions.cluster);
        if (flinkOptions.enabled())
        {
            return runOnFlink(chain);
        }
        final PacingRate pacing = pacing(chain);
        // usage errors before any file is claimed or thread started
        final RunSettings settings = chain.settings();
        controlOptions.httpAddress(spec, settings);
        controlOptions.statsIntervalNs(spec);
        // with checkpoints the capture and the records are written in place: the latest checkpoint says how much of
        // each is committed, and a resume cuts them back to it (a temporary name would not survive a kill); the fault
        // log is written (atomically) only when VNF code threw, failed run or not
        final Set<Path> inPlace = checkpointOptions.enabled(chain) ? inPlace(settings.outPcap(), records, faultLog) : inPlace(faultLog);
        try (OutputFiles outputs = OutputFiles.claim(inputs(settings), outputs(settings), inPlace))
        {
            final WarmUp warmUp = warmup > 0 ? warmUp(chain, pacing) : null;
            final Path pcapTarget = settings.outPcap();
            final Outcome outcome = runAndWrite(chain, pacing, warmUp, outputs);
            // a run stopped by a signal or the error bound finished what it read: its outputs are complete
            outputs.commit();
            if (pcapTarget != null && !json)
            {
                System.out.println("wrote " + outcome.pcapPackets() + " packets to " + pcapTarget);
            }
            return outcome.exitStatus();
        }
    }

    /**
     * {@code --runtime flink}: the chain as a Flink job on a MiniCluster in this process; the
     * committed outputs become the run's files, and the summary gets Flink's facts.
     */
    private Integer runOnFlink(final ChainSpec chain) throws IOException
    {
        final String notWith = dpdkOptions.enabled() ? "--dpdk" : rate != null ? "--rate" : warmup > 0 ? "--warmup"
            : checkpointOptions.enabled(chain) ? "--checkpoint-dir, --resume or settings.checkpoint" : null;
        if (notWith != null)
        {
            throw new ParameterException(spec.commandLine(), notWith + " cannot be used with --runtime flink; fix: drop it"
                + " (Flink takes its own checkpoints: docs/flink.md)");
        }
        if (controlOptions.http != null || controlOptions.statsInterval != null)
        {
            // the control plane reads one engine's published figures and steers it at its batch boundaries; a Flink run
            // has one engine per subtask inside Flink's tasks, and a parameter change would have to reach every one of
            // them at the same packet, and again after every restore: docs/flink.md#limits says what that needs
            throw new UsageProblem((controlOptions.http != null ? "--http" : "--stats-interval") + " cannot be used with"
                + " --runtime flink: the control plane (GET /metrics, /status, /state, POST /params, POST /stop) and the"
                + " rate line watch and steer the standalone engine; a Flink run's engines live inside Flink's tasks, one"
                + " per subtask, and a live parameter change cannot yet reach them all at one packet position.",
                "drop it: the run's figures are in its summary, SIGTERM with --savepoint-dir stops it with a savepoint, and"
                + " parameters change in the chain's YAML for the next run (docs/flink.md#limits).");
        }
        if (chain.settings().http() != null)
        {
            System.err.println("transnfv: the chain's settings.http is not served with --runtime flink: the control plane"
                + " watches the standalone engine only (docs/flink.md#limits)");
        }
        final FlinkSettings flink = flinkOptions.settings();
        final RunSettings settings = chain.settings();
        final FlinkStop from = savepointOptions.from();
        // with a directory to stop into, SIGTERM and SIGINT stop the job with a savepoint there
        final boolean onSignal = savepointOptions.stopsOnSignal();
        final RunControl control = new RunControl();
        final String onFirstSignal = onSignal ? "stopping the Flink job with a savepoint into " + savepointOptions.directory()
            + " after the read batches already emitted" : null;
        if (savepointOptions.stopping())
        {
            try (SignalStop signals = SignalStop.install(control, System.err, () -> { }, onFirstSignal))
            {
                final FlinkRunner.Ended ended = flinkOptions.runOrStop(ChainRecipe.of(chainOptions),
                    FlinkOptions.engines(executorOptions.kind, executorOptions.strategy), savepointOptions.outputs(), from,
                    savepointOptions.stopAfterPackets, savepointOptions.savepoints(), control::stopRequested);
                stoppedWithSavepoint(chain, flink, ended, from, control);
                return signals.exitStatus();
            }
        }
        try (OutputFiles outputs = OutputFiles.claim(inputs(settings), outputs(settings), inPlace(faultLog));
             SignalStop signals = onSignal ? SignalStop.install(control, System.err, outputs::close, onFirstSignal) : null)
        {
            final Path work = onSignal ? savepointOptions.outputs() : Files.createTempDirectory("transnfv-flink-");
            try
            {
                final FlinkRunResult result;
                if (onSignal)
                {
                    final FlinkRunner.Ended ended = flinkOptions.runOrStop(ChainRecipe.of(chainOptions),
                        FlinkOptions.engines(executorOptions.kind, executorOptions.strategy), work, from, Long.MAX_VALUE,
                        savepointOptions.savepoints(), control::stopRequested);
                    if (ended.stop() != null)
                    {
                        // the run's records, frames and state are written by the step that runs to the end: none is committed here
                        stoppedWithSavepoint(chain, flink, ended, from, control);
                        return signals.exitStatus();
                    }
                    result = ended.result();
                }
                else
                {
                    result = flinkOptions.run(ChainRecipe.of(chainOptions), FlinkOptions.engines(executorOptions.kind,
                        executorOptions.strategy), work);
                }
                final Path outPcap = settings.outPcap();
                long pcapPackets = 0;
                if (outPcap != null)
                {
                    pcapPackets = result.writePcap(outputs.writePath(outPcap));
                }
                if (records != null)
                {
                    try (Writer writer = Files.newBufferedWriter(outputs.writePath(records), StandardCharsets.UTF_8))
                    {
                        result.writeRecords(writer);
                    }
                }
                final RunReport built = flinkReport(chain, flink, result, new OutputPaths(text(outPcap), text(records), text(state),
                    text(report)), null, control);
                System.out.println(json ? ReportJson.toJson(built) : built.toText());
            final String nic = json ? null : dpdkOptions.nicStatistics();
            if (nic != null)
            {
                // testpmd's "show port stats all" block, where DPDK users look for it
                System.out.print(nic);
            }
                if (!json)
                {
                    result.facts().forEach(System.out::println);
                }
                if (report != null)
                {
                    ReportJson.write(built, outputs.writePath(report));
                }
                if (paramChangesOut != null)
                {
                    // a Flink run takes no parameter changes: its change script is empty
                    ReportJson.writeParamChanges(List.of(), outputs.writePath(paramChangesOut));
                }
                if (state != null)
                {
                    try (Writer writer = Files.newBufferedWriter(outputs.writePath(state), StandardCharsets.UTF_8))
                    {
                        result.writeState(writer);
                    }
                }
                outputs.commit();
                if (outPcap != null && !json)
                {
                    System.out.println("wrote " + pcapPackets + " packets to " + outPcap);
                }
                if (onSignal)
                {
                    savepointOptions.finished();
                }
                // a signal that came once the job had ended stopped nothing: the run is complete, with the signal's status
                return signals == null ? 0 : signals.exitStatus();
            }
            finally
            {
                if (!onSignal)
                {
                    deleteTree(work);
                }
            }
        }
    }

    /** @return the summary and report of a run on Flink, or of where it stands at a stop; {@code stopped} says why it stopped, or null. */
    private RunReport flinkReport(final ChainSpec chain, final FlinkSettings flink, final FlinkRunResult result, final OutputPaths paths,
        final String stopped, final RunControl control) throws IOException
    {
        final String description;
        try (ChainExecutor one = executorOptions.create(chain))
        {
            description = "flink, " + flink.parallelism() + " subtasks x " + one.describe();
        }
        final String sourceDescription;
        try (PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            sourceDescription = source.describe();
        }
        final RunReport.Builder report = RunReport.builder()
            .transnfvVersion(Transnfv.version())
            .executor(executorOptions.report(chain, description))
            .source(sourceDescription)
            .outputs(paths)
            .measured(result.stats(), result.sourceStats(), result.wallNs())
            .state(flinkTableNames(result), result.liveEntries())
            .flink(result.report());
        if (stopped != null)
        {
            report.stopped(control.stopCause().name().toLowerCase(Locale.ROOT).replace('_', '-'), stopped);
        }
        return report.build();
    }

    /**
     * A job stopped with a savepoint: keeps the stop in the run's savepoint directory, prints the
     * summary of the run up to the stop (why it stopped, for a signal) and Flink's facts, writes
     * {@code --report} of it, and says how to resume. The records, frames and state are the whole
     * run's, written by the step that runs to the end.
     */
    private void stoppedWithSavepoint(final ChainSpec chain, final FlinkSettings flink, final FlinkRunner.Ended ended,
        final FlinkStop from, final RunControl control) throws IOException
    {
        final FlinkStop stop = ended.stop();
        savepointOptions.stopped(stop);
        final String where = String.format(Locale.ROOT, "stopped with a savepoint after %,d packets at parallelism %d%s: %s",
            stop.packets(), stop.parallelism(), from == null ? "" : " (resumed at " + String.format(Locale.ROOT, "%,d", from.packets())
                + " from parallelism " + from.parallelism() + ")", stop.savepoint());
        final RunReport built = flinkReport(chain, flink, ended.result(), new OutputPaths(null, null, null, text(report)),
            control.stopRequested() ? control.message() + "; " + where : null, control);
        final String resume = "resume with: --from-savepoint " + savepointOptions.directory() + " [--parallelism N]";
        if (json)
        {
            System.out.println(ReportJson.toJson(built));
            System.err.println("transnfv: " + where + "; " + resume);
        }
        else
        {
            System.out.println(built.toText());
            ended.result().facts().forEach(System.out::println);
            System.out.println(where);
            System.out.println(resume);
        }
        if (report != null)
        {
            final Map<String, Path> reportOnly = new LinkedHashMap<>();
            reportOnly.put("--report", report);
            try (OutputFiles written = OutputFiles.claim(Map.of(), reportOnly, Set.of()))
            {
                ReportJson.write(built, written.writePath(report));
                written.commit();
            }
        }
    }

    private static List<String> flinkTableNames(final FlinkRunResult result)
    {
        final TableCatalog catalog = result.runtime().catalog();
        final List<String> names = new ArrayList<>(catalog.size());
        for (int t = 0; t < catalog.size(); t++)
        {
            names.add(catalog.qualifiedName(t));
        }
        return names;
    }

    private static void deleteTree(final Path root) throws IOException
    {
        try (var paths = Files.walk(root))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }

    /** What a run left: the packets written to the pcap, and the command's exit status. */
    private record Outcome(long pcapPackets, int exitStatus)
    {
    }

    /** @return the files the run reads, by the option that named them, for {@link OutputFiles#claim}. */
    private Map<String, Path> inputs(final RunSettings settings)
    {
        final Map<String, Path> inputs = new LinkedHashMap<>();
        if (settings.traffic().kind() == TrafficSpec.Kind.PCAP && !dpdkOptions.enabled())
        {
            final String option = chainOptions.pcap != null ? "--pcap" : "the chain's traffic pcap";
            FileProblems.checkReadable(option, settings.traffic().pcap(), "a pcap or pcapng capture");
            inputs.put(option, settings.traffic().pcap());
        }
        inputs.put("the chain file", chainOptions.chainFile());
        return inputs;
    }

    private static Set<Path> inPlace(final Path... files)
    {
        final Set<Path> set = new HashSet<>();
        for (final Path file : files)
        {
            if (file != null)
            {
                set.add(file);
            }
        }
        return set;
    }

    /** @return the files the run writes, by the option that named them, for {@link OutputFiles#claim}. */
    private Map<String, Path> outputs(final RunSettings settings)
    {
        final Map<String, Path> outputs = new LinkedHashMap<>();
        outputs.put(out != null ? "--out" : "the chain's output", settings.outPcap());
        outputs.put("--records", records);
        outputs.put("--state", state);
        outputs.put("--report", report);
        outputs.put("--param-changes-out", paramChangesOut);
        outputs.put("--fault-log", faultLog);
        return outputs;
    }

    /** Runs the chain, writing every output to its temporary file. */
    private Outcome runAndWrite(final ChainSpec chain, final PacingRate pacing, final WarmUp warmUp, final OutputFiles outputs)
        throws IOException
    {
        final long expected = dpdkOptions.enabled() ? -1 : PacketSources.expectedPackets(chain.settings().traffic());
        final Path outPcap = chain.settings().outPcap();
        try (ChainExecutor executor = executorOptions.create(chain);
             SignalStop signals = SignalStop.install(executor.control(), System.err, outputs::close);
             PacketSource source = dpdkOptions.enabled() ? dpdkOptions.open(chain)
                 // paced: every executor reads the paced source itself, whose receive ring is the only buffer
                 : pacing != null ? paced(shapedLikeWarmUp(PacketSources.open(chain.settings().traffic()), warmUp), pacing)
                 : executor.readsSourceItself() ? shapedLikeWarmUp(PacketSources.open(chain.settings().traffic()), warmUp)
                 : PacketSources.openWithIngressThread(chain.settings().traffic());
             PcapWriter pcap = outPcap == null ? null
                 : withCapturesLinkType(checkpointOptions.pcap(chain, executor, outputs, outPcap, System.err), chain);
             Writer recordWriter = records == null ? null
                 : checkpointOptions.records(chain, executor, outputs, records, System.err);
             // open until every output is written: a scrape after the end of the traffic reads the final figures
             ControlServer http = controlOptions.start(spec, chain.settings(), new RunView(chain.name(),
                 executorOptions.report(chain, executor.describe()), executor, expected, tableNames(executor),
                 dpdkOptions.portCounters()), System.err))
        {
            checkpointOptions.attach(chain, executor, dpdkOptions.enabled(), pacing != null, System.err);
            final PacketListener listener = dpdkOptions.withSink(source,
                listener(executor, pcap, recordWriter, outputs, outPcap, records));
            final long startNs = System.nanoTime();
            try (StatsLine stats = controlOptions.statsLine(spec, executor, System.err);
                 Progress ignored = new Progress("packets", () -> executor.stats().packetsFinished(), expected,
                     System.err, !noProgress && stats == null, () -> liveState(executor)))
            {
                executor.run(source, listener);
            }
            // what is still buffered reaches the files here, where a failure can name its output
            flush(pcap == null ? null : pcap::flush, outputs, outPcap);
            flush(recordWriter, outputs, records);
            final long wallNs = System.nanoTime() - startNs;
            final RunReport.Builder summary = RunReport.builder()
                .transnfvVersion(Transnfv.version())
                .executor(executorOptions.report(chain, executor.describe()))
                .source(source.describe())
                .outputs(new OutputPaths(text(outPcap), text(records), text(state), text(report)))
                .measured(executor.stats(), source.stats(), wallNs)
                .scheduler(executor.executorSummary().orElse(null))
                .faults(executor.faults().faults())
                .checkers(executor.finalCheck().orElse(null))
                .paramChanges(executor.paramChanges().map(ParamChanges::applied).orElse(List.of()));
            executor.liveEntries().ifPresent(entries -> summary.state(tables(executor, entries)));
            final RunControl.StopCause stopCause = executor.control().stopCause();
            if (stopCause != RunControl.StopCause.NONE)
            {
                // with checkpoints, what the stop did about the final one: a resume starts there
                final String finalCheckpoint = checkpointOptions.finalCheckpoint();
                summary.stopped(stopCause.name().toLowerCase(Locale.ROOT).replace('_', '-'), executor.control().message()
                    + (finalCheckpoint == null ? "" : "; " + finalCheckpoint));
            }
            if (warmUp != null)
            {
                summary.warmUp(warmUp.packets(), warmUp.wallNs());
            }
            if (source instanceof PacedSource paced)
            {
                summary.pacing(paced.rate().describe(), paced.rxRingSlots(), paced.offered(), paced.rxMissed());
            }
            final RunReport built = summary.checkpoints(checkpointOptions.report()).build();
            System.out.println(json ? ReportJson.toJson(built) : built.toText());
            final String nic = json ? null : dpdkOptions.nicStatistics();
            if (nic != null)
            {
                // testpmd's "show port stats all" block, where DPDK users look for it
                System.out.print(nic);
            }
            if (report != null)
            {
                try
                {
                    ReportJson.write(built, outputs.writePath(report));
                }
                catch (final IOException e)
                {
                    throw outputs.failed(report, e);
                }
            }
            if (paramChangesOut != null)
            {
                try
                {
                    ReportJson.writeParamChanges(built.paramChanges() == null ? List.of() : built.paramChanges(),
                        outputs.writePath(paramChangesOut));
                }
                catch (final IOException e)
                {
                    throw outputs.failed(paramChangesOut, e);
                }
            }
            if (state != null)
            {
                // streamed: a state of millions of entries never becomes one String
                try (Writer stateWriter = Files.newBufferedWriter(outputs.writePath(state), StandardCharsets.UTF_8))
                {
                    executor.writeState(stateWriter);
                }
                catch (final IOException e)
                {
                    throw outputs.failed(state, e);
                }
            }
            if (!executor.faults().isEmpty())
            {
                try
                {
                    writeFaultLog(executor.faults());
                }
                catch (final IOException e)
                {
                    throw outputs.failed(faultLog, e);
                }
                System.err.println("run: VNF code threw on some packets (dropped as <vnf>:vnf-error); first stack traces in "
                    + faultLog);
            }
            if (stopCause == RunControl.StopCause.ERROR_BOUND)
            {
                System.err.println("run: stopped: " + executor.control().message() + "; fix: see the faults in the summary"
                    + " and " + faultLog + ", fix the VNF, or raise the bound (settings.faults.error_bound, --error-bound)");
            }
            return new Outcome(pcap == null ? 0 : pcap.packets(), signals.exitStatus());
        }
    }

    /** @return the pacing {@code --rate} asks for, or null; a usage error for values that cannot work. */
    private PacingRate pacing(final ChainSpec chain)
    {
        if (rate == null)
        {
            return null;
        }
        if (dpdkOptions.enabled())
        {
            throw new ParameterException(spec.commandLine(), "--rate cannot be used with --dpdk: live traffic is paced by"
                + " the wire; fix: drop --rate, or replay the capture without --dpdk");
        }
        if (rxRingSlots < 1 || Integer.bitCount(rxRingSlots) != 1)
        {
            throw new ParameterException(spec.commandLine(), "--rx-ring must be a power of two >= 1, got " + rxRingSlots
                + "; fix: e.g. --rx-ring 1024");
        }
        final PacingRate parsed;
        try
        {
            parsed = PacingRate.parse(rate);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ParameterException(spec.commandLine(), "--rate: " + e.getMessage());
        }
        if (parsed.original() && chain.settings().traffic().kind() != TrafficSpec.Kind.PCAP)
        {
            throw new ParameterException(spec.commandLine(), "--rate original replays a capture's own timing, but the"
                + " traffic is generated; fix: give a rate in packets per second (e.g. --rate 250k), or a capture (--pcap)");
        }
        return parsed;
    }

    private static String text(final Path file)
    {
        return file == null ? null : file.toString();
    }

    /** What the warm-up ran: fewer packets than asked for when the traffic is shorter. */
    private record WarmUp(long packets, long wallNs)
    {
    }

    /**
     * Runs the first {@link #warmup} packets of the traffic through a throwaway engine, paced as
     * the run will be: the JIT then compiles the paths the run takes (small batches at a low
     * rate), not only those of an unpaced run, whose late compilation would show as latency.
     */
    private WarmUp warmUp(final ChainSpec chain, final PacingRate pacing) throws IOException
    {
        final long expected = Math.min(warmup, Math.max(0, PacketSources.expectedPackets(chain.settings().traffic())));
        final long startNs = System.nanoTime();
        try (ChainExecutor executor = executorOptions.create(chain);
             PacketSource source = paced(new PrefixSource(PacketSources.open(chain.settings().traffic()), warmup), pacing);
             Progress ignored = new Progress("warm-up packets", () -> executor.stats().packetsFinished(),
                 expected > 0 ? expected : warmup, System.err, !noProgress))
        {
            executor.run(source, null);
            return new WarmUp(executor.stats().packetsFinished(), System.nanoTime() - startNs);
        }
    }

    /**
     * @return {@code source} reached through the same classes as the warm-up reached its own, if
     *         there was one: code the JIT compiled for the warm-up's shape stays valid for the run.
     */
    private static PacketSource shapedLikeWarmUp(final PacketSource source, final WarmUp warmUp)
    {
        return warmUp == null ? source : new PrefixSource(source, Long.MAX_VALUE);
    }

    /** @return the progress line's live figures: state entries over every table, and the heap in use. */
    private static String liveState(final ChainExecutor executor)
    {
        final Runtime jvm = Runtime.getRuntime();
        final String heap = String.format(Locale.ROOT, "heap %,d MiB", (jvm.totalMemory() - jvm.freeMemory()) >> 20);
        return executor.liveEntries().map(entries ->
        {
            long total = 0;
            for (final long n : entries)
            {
                total += n;
            }
            return String.format(Locale.ROOT, "  state %,d entries, %s", total, heap);
        }).orElse("  " + heap);
    }

    /** @return every table's {@code vnf.table} name, in the catalogue's order. */
    /** @return each table's entries at the end of the run, with its capacity and what it did when full. */
    private static List<RunReport.TableEntries> tables(final ChainExecutor executor, final long[] entries)
    {
        final TableCatalog catalog = executor.runtime().catalog();
        final TableCapacities capacities = executor.runtime().capacities();
        final List<RunReport.TableEntries> tables = new ArrayList<>(catalog.size());
        for (int t = 0; t < catalog.size(); t++)
        {
            final long capacity = capacities.capacity(t);
            if (capacity == TableCapacities.UNBOUNDED)
            {
                tables.add(new RunReport.TableEntries(catalog.qualifiedName(t), entries[t]));
                continue;
            }
            final boolean shared = capacity == TableCapacities.SHARED;
            tables.add(new RunReport.TableEntries(catalog.qualifiedName(t), entries[t], shared ? capacities.sharedCapacity() : capacity, shared,
                capacities.evicts(t) ? "evict" : "reject", capacities.full(t), capacities.evicted(t)));
        }
        return tables;
    }

    private static List<String> tableNames(final ChainExecutor executor)
    {
        final TableCatalog catalog = executor.runtime().catalog();
        final List<String> names = new ArrayList<>(catalog.size());
        for (int t = 0; t < catalog.size(); t++)
        {
            names.add(catalog.qualifiedName(t));
        }
        return names;
    }

    /**
     * @return {@code writer}, told the link type of the capture the run reads, which its header
     *         names if no frame is forwarded (a capture's link type is written back; Ethernet for
     *         generated traffic and ports).
     */
    private PcapWriter withCapturesLinkType(final PcapWriter writer, final ChainSpec chain) throws IOException
    {
        final TrafficSpec traffic = chain.settings().traffic();
        if (traffic.kind() == TrafficSpec.Kind.PCAP && !dpdkOptions.enabled())
        {
            try (PcapSource capture = PcapSource.open(traffic.pcap(), 1))
            {
                final PacketBuffer first = new PacketBuffer();
                if (capture.next(first))
                {
                    writer.linkTypeIfEmpty(first.linkType());
                }
            }
        }
        return writer;
    }

    /** @return {@code source} paced at {@code pacing} through the run's receive ring, or as it is without pacing. */
    private PacketSource paced(final PacketSource source, final PacingRate pacing)
    {
        return pacing == null ? source : new PacedSource(source, pacing, rxRingSlots, System::nanoTime);
    }

    /**
     * The fault log: for each kind of fault a header line, then its first occurrence's stack trace;
     * written under a temporary name and moved into place, so that it is whole or absent.
     */
    private void writeFaultLog(final FaultLog faults) throws IOException
    {
        final Path written = faultLog.toAbsolutePath().resolveSibling("." + faultLog.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(written, StandardCharsets.UTF_8)))
        {
            for (final FaultLog.FirstThrow first : faults.firstThrows())
            {
                final FaultLog.Fault fault = first.fault();
                out.printf("%s %s threw %s on %d packet(s); first on packet #%d:%n", fault.vnf(), fault.callback(),
                    fault.exception(), fault.packets(), fault.firstSequence());
                out.print(first.stackTrace());
                out.println();
            }
            if (out.checkError())
            {
                throw new IOException("writing " + written + " failed");
            }
        }
        try
        {
            Files.move(written, faultLog, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException e)
        {
            Files.move(written, faultLog, StandardCopyOption.REPLACE_EXISTING);
        }
        finally
        {
            Files.deleteIfExists(written);
        }
    }

    /** Flushes {@code out} (null: none), naming the output {@code target} if it fails. */
    private static void flush(final Flushable out, final OutputFiles outputs, final Path target) throws IOException
    {
        if (out != null)
        {
            try
            {
                out.flush();
            }
            catch (final IOException e)
            {
                throw outputs.failed(target, e);
            }
        }
    }

    /**
     * The sink the executor calls with every finished packet (on an engine thread): a write that
     * fails fails the run with the output's name ({@link OutputFiles#failed}).
     */
    private static PacketListener listener(final ChainExecutor executor, final PcapWriter pcap, final Writer records,
        final OutputFiles outputs, final Path pcapTarget, final Path recordsTarget)
    {
        if (pcap == null && records == null)
        {
            return null;
        }
        final StringBuilder line = new StringBuilder(256);
        return (record, buffer, packet) ->
        {
            if (pcap != null && !record.dropped())
            {
                try
                {
                    pcap.write(buffer);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(outputs.failed(pcapTarget, e));
                }
            }
            if (records != null)
            {
                line.setLength(0);
                record.format(line, executor.runtime(), packet).append('\n');
                try
                {
                    records.append(line);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(outputs.failed(recordsTarget, e));
                }
            }
        };
    }
}
