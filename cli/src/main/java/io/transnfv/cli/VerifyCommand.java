package io.transnfv.cli;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.EquivalenceCheck;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.flink.job.FlinkEquivalence;
import io.transnfv.flink.job.FlinkRunResult;
import io.transnfv.flink.job.FlinkSettings;
import io.transnfv.scheduler.SchedulingPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/** {@code transnfv verify}: checks the engine against the serial oracle. */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = {
        "Check the engine against the serial oracle: run both on the same traffic and compare every packet's output"
            + " record and the final state (chain output equivalence).",
        "On a difference, print the first diverging packet, both outputs, the first differing state entry and the"
            + " command that reproduces it.",
        "Every state checker of the chain runs in both runs, whatever the chain enables: on the final state, and at the"
            + " chain's checker interval if it sets one; both runs must find the same violations.",
        "A chain with a table under { stale-reads: b } is compared relaxed (unless --strict): where records or state"
            + " differ, print how many, with the stale-read tables and their bounds, and pass if every packet came out"
            + " once, in the oracle's order, only packets through a VNF with such a table (or downstream of one) and"
            + " only those VNFs' state differ, and every checker that held in the oracle's run held in the engine's.",
        "Exit status: 0 equivalent (or, relaxed, every difference one that stale reads allow), 1 not equivalent, 2 bad"
            + " input (chain, option), 3 the check could not be completed (the traffic could not be read, an I/O error),"
            + " 4 equivalent but a state checker violated (a bug in a VNF)."})
final class VerifyCommand implements Callable<Integer>
{
    /** Exit status when every check found the engine equal to the oracle. */
    static final int EQUIVALENT = 0;
    /** Exit status when a check found a difference. */
    static final int NOT_EQUIVALENT = 1;
    /** Exit status when a check could not be completed: the traffic could not be read, an I/O error. */
    static final int CANNOT_CHECK = 3;
    /** Exit status when the engine equalled the oracle but a VNF's state checker was violated. */
    static final int CHECKER_VIOLATED = 4;

    @Mixin
    ChainOptions chainOptions;

    @Option(names = "--strategy", paramLabel = "NAME", defaultValue = TpgBatchExecutor.DEFAULT_STRATEGY,
        description = "The engine's scheduling strategy to check (default: ${DEFAULT-VALUE}); see run --help.")
    String strategy;

    @Option(names = "--all-strategies",
        description = "Check every strategy: the 12 static policies and the adaptive model.")
    boolean allStrategies;

    @Option(names = "--seeds", paramLabel = "K", defaultValue = "1",
        description = "With generated traffic: check K seeds, from the chain's seed upwards (default: ${DEFAULT-VALUE}).")
    int seeds;

    @Option(names = "--json", description = "Print the verdict and every check as JSON instead of text.")
    boolean json;

    @Option(names = "--strict",
        description = "Compare a chain with stale-reads tables exactly, as any other: fail on the first difference.")
    boolean strict;

    @Option(names = "--param-changes", paramLabel = "FILE",
        description = "Replay the VNF parameter changes of a run (a change script from run --param-changes-out, or its"
            + " --report) in the oracle and in the engine, each at the packet it took effect at in the run.")
    Path paramChanges;

    private ParamChangeScript script;

    @Mixin
    FlinkOptions flinkOptions;

    private final List<VerifyReport.Check> results = new ArrayList<>();

    /** The chain's stale-read tables ({@code <vnf>.<table>}) and their bounds in batches; empty if none. */
    private Map<String, Integer> staleReads = Map.of();

    @Override
    public Integer call() throws IOException
    {
        if (seeds < 1)
        {
            throw new UsageProblem("--seeds must be at least 1, got " + seeds + ".", "e.g. --seeds 10 checks ten seeds.");
        }
        final ChainSpec chain = chainOptions.resolve();
        staleReads = staleReadTables(chain);
        final TrafficSpec traffic = chain.settings().traffic();
        if (traffic.kind() == TrafficSpec.Kind.PCAP)
        {
            FileProblems.checkReadable(chainOptions.pcap != null ? "--pcap" : "the chain's traffic pcap", traffic.pcap(),
                "a pcap or pcapng capture");
        }
        if (traffic.kind() != TrafficSpec.Kind.GENERATE && seeds > 1)
        {
            throw new UsageProblem("--seeds applies to generated traffic, not to a capture file.",
                "drop --seeds, or check generated traffic (--generate ...).");
        }
        final long firstSeed = traffic.kind() == TrafficSpec.Kind.GENERATE ? traffic.generator().seed() : 0;
        if (paramChanges != null)
        {
            if (flinkOptions.enabled())
            {
                throw new UsageProblem("--param-changes is not supported with --runtime flink.",
                    "drop --runtime flink: the changes are replayed in the oracle and the engine on this machine.");
            }
            script = ParamChangeScript.read(paramChanges, chain);
        }
        if (flinkOptions.enabled())
        {
            return verifyOnFlink(traffic, firstSeed);
        }
        final List<String> strategies = allStrategies
            ? TpgBatchExecutor.strategyNames().subList(0, SchedulingPolicy.STATIC_COUNT + 1) : List.of(strategy);
        int failures = 0;
        for (final String strategyName : strategies)
        {
            for (int s = 0; s < seeds; s++)
            {
                final long seed = firstSeed + s;
                failures += check(chain, strategyName, seed) ? 0 : 1;
            }
        }
        final int checks = strategies.size() * seeds;
        final int withinStaleReads = (int)results.stream().filter(c -> Boolean.TRUE.equals(c.withinStaleReads())).count();
        final boolean checkersHeld = results.stream()
            .allMatch(c -> c.oracleCheckerViolations().isEmpty() && c.engineCheckerViolations().isEmpty());
        final int status = failures > 0 ? NOT_EQUIVALENT : checkersHeld ? EQUIVALENT : CHECKER_VIOLATED;
        if (json)
        {
            System.out.println(ReportJson.toJson(new VerifyReport(VerifyReport.SCHEMA_VERSION, Transnfv.version(),
                chain.name(), chain.settings().resolvedExecutorThreads(), failures + withinStaleReads == 0, status, checks,
                checks - failures - withinStaleReads, relaxed() ? withinStaleReads : null, staleReads.isEmpty() ? null : staleReads,
                relaxed() ? Boolean.TRUE : staleReads.isEmpty() ? null : Boolean.FALSE, List.copyOf(results))));
        }
        else if (checks > 1)
        {
            System.out.printf(Locale.ROOT, "%d of %d checks equivalent%s (%d strategies x %d seeds)%n",
                checks - failures - withinStaleReads, checks, relaxed()
                    ? String.format(Locale.ROOT, ", %d within the stale reads of %s", withinStaleReads, staleReadsText()) : "",
                strategies.size(), seeds);
        }
        return status;
    }

    /**
     * {@code --runtime flink}: per seed, the Flink run's subtasks each against the oracle over
     * their own packets, and their union against the oracle over all of them where the chain's
     * tables make the subtasks independent.
     */
    private int verifyOnFlink(final TrafficSpec traffic, final long firstSeed) throws IOException
    {
        if (json || allStrategies)
        {
            throw new UsageProblem("--json and --all-strategies are not supported with --runtime flink yet.",
                "drop them: the Flink check prints one line per subtask.");
        }
        final FlinkSettings settings = flinkOptions.settings();
        final boolean generated = traffic.kind() == TrafficSpec.Kind.GENERATE;
        int failures = 0;
        int checks = 0;
        for (int s = 0; s < seeds; s++)
        {
            final ChainRecipe base = ChainRecipe.of(chainOptions);
            final ChainRecipe recipe = generated ? withSeed(base, firstSeed + s) : base;
            final String what = generated ? "seed " + (firstSeed + s) : traffic.pcap().toString();
            final Path work = Files.createTempDirectory("transnfv-flink-verify-");
            try
            {
                final FlinkRunResult result = flinkOptions.run(recipe, FlinkOptions.engines(ExecutorOptions.Kind.TPG, strategy), work);
                for (final FlinkEquivalence.Check check : FlinkEquivalence.check(recipe.load(), result))
                {
                    checks++;
                    final String whose = check.what().equals("union") ? "union of the subtasks, against the oracle over all packets"
                        : check.what() + ", against the oracle over its packets";
                    if (check.equivalent())
                    {
                        System.out.printf(Locale.ROOT, "%s, %s: %,d packets, records and final state equal%n", what, whose,
                            check.packets());
                    }
                    else
                    {
                        failures++;
                        System.out.printf(Locale.ROOT, "%s, %s: NOT EQUIVALENT%n  first difference: %s%n", what, whose,
                            check.difference());
                    }
                }
                if (!result.partitioning().independent())
                {
                    System.out.printf(Locale.ROOT, "%s, union: not compared: %s keep a copy per subtask (per-subtask), so the"
                        + " subtasks are not one standalone run%n", what, String.join(", ", result.partitioning().perSubtask()));
                }
            }
            finally
            {
                try (var paths = Files.walk(work))
                {
                    for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
                    {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
        if (checks > 1)
        {
            System.out.printf(Locale.ROOT, "%d of %d checks equivalent (flink, %d subtasks, %d seeds)%n", checks - failures, checks,
                settings.parallelism(), seeds);
        }
        return failures > 0 ? NOT_EQUIVALENT : EQUIVALENT;
    }

    /** @return the tables of {@code chain} under {@code { stale-reads: b }}, as {@code <vnf>.<table>}, with b. */
    static Map<String, Integer> staleReadTables(final ChainSpec chain)
    {
        final Map<String, Integer> tables = new LinkedHashMap<>();
        for (final VnfNode vnf : chain.vnfs())
        {
            new TreeMap<>(vnf.staleReads()).forEach((table, bound) -> tables.put(vnf.name() + "." + table, bound));
        }
        return Collections.unmodifiableMap(tables);
    }

    /** @return true if differences are judged against the chain's stale-reads tables, not failed outright. */
    private boolean relaxed()
    {
        return !staleReads.isEmpty() && !strict;
    }

    /** @return the stale-read tables with their bounds, e.g. {@code lb.active (bound 1 batch)}. */
    private String staleReadsText()
    {
        final StringBuilder out = new StringBuilder();
        staleReads.forEach((table, bound) -> out.append(out.length() == 0 ? "" : ", ").append(table).append(" (bound ")
            .append(bound).append(bound == 1 ? " batch)" : " batches)"));
        return out.toString();
    }

    /** @return per table, e.g. {@code lb.active 7, lb.connections 1,227}, or {@code none}. */
    private static String perTableText(final Map<String, Long> entries)
    {
        final StringBuilder out = new StringBuilder();
        entries.forEach((table, count) -> out.append(out.length() == 0 ? "" : ", ")
            .append(String.format(Locale.ROOT, "%s %,d", table, count)));
        return out.length() == 0 ? "none" : out.toString();
    }

    /**
     * @return the checkers (as {@code <vnf>.<checker>}) violated in the engine's run that held in
     *         the oracle's: a stale read keeps every update applied once, so it never explains them.
     */
    private static List<String> newlyViolated(final EquivalenceCheck.Result result)
    {
        if (result.candidateCheckers() == null)
        {
            return List.of();
        }
        final Set<String> oracle = new HashSet<>();
        result.oracleCheckers().violations().forEach(v -> oracle.add(v.vnf() + "." + v.checker()));
        final List<String> engine = new ArrayList<>();
        for (final CheckerReport.Violation v : result.candidateCheckers().violations())
        {
            if (!oracle.contains(v.vnf() + "." + v.checker()))
            {
                engine.add(v.vnf() + "." + v.checker());
            }
        }
        return engine;
    }

    /** @return {@code recipe} generating with {@code seed} instead of any seed it names. */
    private static ChainRecipe withSeed(final ChainRecipe recipe, final long seed)
    {
        final StringBuilder generate = new StringBuilder();
        if (recipe.generate() != null)
        {
            for (final String item : recipe.generate().split(","))
            {
                if (!item.isBlank() && !item.trim().startsWith("seed="))
                {
                    generate.append(item.trim()).append(',');
                }
            }
        }
        generate.append("seed=").append(seed);
        return new ChainRecipe(recipe.chain(), recipe.pcap(), recipe.loops(), generate.toString(), recipe.threads(),
            recipe.batchTransactions(), recipe.batchInterval(), recipe.latencyTarget(), recipe.errorBound(), recipe.errorWindow(),
            recipe.batchDeadline());
    }

    private static void printViolated(final String whose, final CheckerReport checkers)
    {
        if (checkers != null && !checkers.held())
        {
            for (final CheckerReport.Violation v : checkers.violations())
            {
                System.out.printf(Locale.ROOT, "  checker violated in the %s's run: %s.%s, %,d violation(s); first at %s, key %s: %s%n",
                    whose, v.vnf(), v.checker(), v.count(), v.firstSeen(), v.firstKey(), v.firstMessage());
            }
        }
    }

    /** Compares the oracle and the engine once; prints the verdict; returns true if equivalent. */
    private boolean check(final ChainSpec chain, final String strategyName, final long seed) throws IOException
    {
        final TrafficSpec traffic = chain.settings().traffic();
        final boolean generated = traffic.kind() == TrafficSpec.Kind.GENERATE;
        final ChainSpec run;
        if (generated)
        {
            final GeneratorConfig seeded = traffic.generator().toBuilder().seed(seed).build();
            run = chain.withSettings(chain.settings().withTraffic(TrafficSpec.generate(seeded)));
        }
        else
        {
            run = chain;
        }
        // verify runs every checker the chain's VNFs declare, whatever the chain enables
        final ChainSpec checked = run.withSettings(run.settings().withCheckers(run.settings().checkers().all()));
        final TrafficSpec runTraffic = run.settings().traffic();
        final List<ChainExecutor> changed = new ArrayList<>();
        final EquivalenceCheck.Result result = EquivalenceCheck.compare(checked, () -> PacketSources.open(runTraffic),
            spec -> ExecutorOptions.create(ExecutorOptions.Kind.TPG, strategyName, spec), executor ->
            {
                if (script != null)
                {
                    script.scheduleOn(executor);
                    changed.add(executor);
                }
            });
        // the oracle's run and the engine's: both applied the script's changes, at the same packets
        final List<ParamChanges.Applied> oracleChanges = changed.isEmpty() ? List.of()
            : changed.get(0).paramChanges().orElseThrow().applied();
        final boolean changesAgree = changed.size() < 2
            || oracleChanges.equals(changed.get(1).paramChanges().orElseThrow().applied());
        final String what = generated ? "seed " + seed : traffic.pcap().toString();
        final boolean equivalent = result.equivalent() && result.checkersAgree() && changesAgree;
        // relaxed: records and state may differ through the stale reads; which packets came out may not
        final List<String> newlyViolated = newlyViolated(result);
        final boolean withinStaleReads = relaxed() && !equivalent && changesAgree
            && (result.equivalent() || result.withinStaleReads()) && newlyViolated.isEmpty();
        final String reproduce = equivalent || withinStaleReads ? null
            : "transnfv verify " + (chainOptions.chain == null ? "" : chainOptions.chain + " ")
                + (generated ? "--generate seed=" + seed : "--pcap " + traffic.pcap())
                + " --threads " + chain.settings().resolvedExecutorThreads() + " --strategy " + strategyName
                + (paramChanges == null ? "" : " --param-changes " + paramChanges) + (strict ? " --strict" : "");
        final boolean diverged = result.divergingSequence() >= 0;
        results.add(new VerifyReport.Check(strategyName, generated ? seed : null,
            generated ? null : traffic.pcap().toString(), result.packets(), equivalent,
            relaxed() ? withinStaleReads : null, result.candidate(),
            result.differingPackets(), result.misplacedPackets(), result.differingStateEntries(),
            relaxed() ? result.unexplainedPackets() : null, relaxed() ? result.unexplainedStateEntries() : null,
            diverged ? result.divergingSequence() : null, diverged ? result.oracleRecord() : null,
            diverged ? result.candidateRecord() : null, result.stateDifference(), reproduce,
            result.oracleCheckers().checkers(), result.oracleCheckers().violations(),
            result.candidateCheckers() == null ? List.of() : result.candidateCheckers().violations()));
        if (!json)
        {
            printViolated("oracle", result.oracleCheckers());
            printViolated("engine", result.candidateCheckers());
        }
        if (json)
        {
            return equivalent || withinStaleReads;
        }
        if (withinStaleReads)
        {
            System.out.printf(Locale.ROOT, "%s: %,d packets, WITHIN STALE READS (%s): %,d packets (%.1f %%) and %,d final state"
                    + " entries (%s) differ from the oracle; stale-read tables: %s; every packet came out once, in the oracle's"
                    + " order, only VNFs a stale read reaches differ, and every checker that held in the oracle's run held%n",
                what, result.packets(), result.candidate(), result.differingPackets(),
                result.packets() == 0 ? 0.0 : 100.0 * result.differingPackets() / result.packets(),
                result.differingStateEntryCount(), perTableText(result.differingStateEntries()), staleReadsText());
            if (diverged)
            {
                System.out.println("  first differing packet: #" + result.divergingSequence());
                System.out.println("    oracle: " + result.oracleRecord());
                System.out.println("    engine: " + result.candidateRecord());
            }
            return true;
        }
        if (!changesAgree)
        {
            System.out.printf(Locale.ROOT, "%s: NOT EQUIVALENT (%s): the engine applied the parameter changes elsewhere than the"
                + " oracle (oracle %s; engine %s)%n", what, result.candidate(), oracleChanges,
                changed.get(1).paramChanges().orElseThrow().applied());
            return false;
        }
        if (relaxed() && (result.equivalent() || result.withinStaleReads()) && !newlyViolated.isEmpty())
        {
            System.out.printf(Locale.ROOT, "%s: NOT EQUIVALENT (%s): checker(s) %s held in the oracle's run but not in the"
                + " engine's; stale reads (%s) keep every update applied once, so they do not explain it%n", what,
                result.candidate(), String.join(", ", newlyViolated), staleReadsText());
            System.out.println("  reproduce: " + reproduce);
            return false;
        }
        if (result.equivalent() && !equivalent)
        {
            System.out.printf(Locale.ROOT, "%s: NOT EQUIVALENT (%s): records and final state equal, but the state checkers found"
                + " different violations in the two runs (oracle %s; engine %s)%n", what, result.candidate(),
                result.oracleCheckers().violations(), result.candidateCheckers().violations());
            return false;
        }
        if (result.equivalent())
        {
            System.out.printf(Locale.ROOT, "%s: %,d packets, records and final state equal to the oracle (%s)%s%n",
                what, result.packets(), result.candidate(), script == null || script.size() == 0 ? ""
                    : String.format(Locale.ROOT, ", %d of the script's %d parameter change(s) applied in both at their packets",
                        oracleChanges.size(), script.size()));
            return true;
        }
        System.out.printf(Locale.ROOT, "%s: NOT EQUIVALENT (%s)%n", what, result.candidate());
        System.out.printf(Locale.ROOT, "  differing: %,d of %,d packets, %,d final state entries (%s)%n",
            result.differingPackets(), result.packets(), result.differingStateEntryCount(),
            perTableText(result.differingStateEntries()));
        if (!result.samePackets())
        {
            System.out.printf(Locale.ROOT, "  %,d packet(s) missing, duplicated or out of the oracle's order%s%n",
                result.misplacedPackets(), relaxed() ? "; stale reads (" + staleReadsText() + ") do not explain that" : "");
        }
        if (relaxed() && result.unexplainedPackets() + result.unexplainedStateEntries() > 0)
        {
            System.out.printf(Locale.ROOT, "  %,d differing packet(s) and %,d state entries of VNFs that no stale read reaches"
                + " (none of %s, nor downstream of one); stale reads do not explain them%n", result.unexplainedPackets(),
                result.unexplainedStateEntries(), staleReadsText());
        }
        if (diverged)
        {
            System.out.println("  first diverging packet: #" + result.divergingSequence());
            System.out.println("    oracle: " + result.oracleRecord());
            System.out.println("    engine: " + result.candidateRecord());
        }
        if (result.stateDifference() != null)
        {
            System.out.println("  first differing state entry: " + result.stateDifference());
        }
        System.out.println("  reproduce: " + reproduce);
        return false;
    }
}
