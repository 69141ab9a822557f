package io.transnfv.cli;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.pipeline.BatchedChainExecutor;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.report.RunReport.ExecutorReport;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/** Which executor runs the chain, and with which scheduling strategy. */
final class ExecutorOptions
{
    /** The executors a user can pick; on the command line each is its name in lower case. */
    enum Kind
    {
        /** The transactional engine: punctuation batches, TPG, parallel executors. */
        TPG,
        /** The serial oracle: one thread, one packet at a time. */
        SERIAL;

        /** @return the name a user writes: {@code tpg}, {@code serial}. */
        String cliName()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Picocli's view of {@link Kind}: the lower-case names, listed in help and accepted as written. */
    static final class KindNames implements Iterable<String>, ITypeConverter<Kind>
    {
        private static final List<String> NAMES = Arrays.stream(Kind.values()).map(Kind::cliName).toList();

        @Override
        public Iterator<String> iterator()
        {
            return NAMES.iterator();
        }

        @Override
        public Kind convert(final String value)
        {
            for (final Kind kind : Kind.values())
            {
                if (kind.cliName().equals(value))
                {
                    return kind;
                }
            }
            throw new TypeConversionException("expected one of " + NAMES + " (case-sensitive) but was '" + value + "'");
        }
    }

    @Option(names = "--executor", paramLabel = "KIND", defaultValue = "tpg",
        converter = KindNames.class, completionCandidates = KindNames.class,
        description = "Executor: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); serial is the oracle.")
    Kind kind;

    @Option(names = "--strategy", paramLabel = "NAME", defaultValue = TpgBatchExecutor.DEFAULT_STRATEGY,
        description = {"Scheduling strategy of the tpg executor (default: ${DEFAULT-VALUE}):",
            "exploration/granularity/abort with exploration bfs|dfs|random, granularity op|group,",
            "abort eager|lazy (e.g. dfs/group/lazy), or adaptive (heuristic decision model per batch)",
            "or adaptive-feedback (bandit over the 12 policies)."})
    String strategy;

    /** @return the report's account of the chosen executor running {@code chain}, described as {@code description}. */
    ExecutorReport report(final ChainSpec chain, final String description)
    {
        return switch (kind)
        {
            case SERIAL -> ExecutorReport.serial(description);
            case TPG -> ExecutorReport.tpg(description, strategy, chain.settings());
        };
    }

    /** @return a new executor of the chosen kind for {@code chain}. */
    ChainExecutor create(final ChainSpec chain)
    {
        return create(kind, strategy, chain);
    }

    /** @return a new executor of {@code kind} using {@code strategy} for {@code chain}. */
    static ChainExecutor create(final Kind kind, final String strategy, final ChainSpec chain)
    {
        return switch (kind)
        {
            case SERIAL -> new SerialChainExecutor(chain);
            case TPG ->
            {
                TpgBatchExecutor.decisionModel(strategy); // rejects an unknown name before any thread starts
                yield new BatchedChainExecutor(chain, threads -> TpgBatchExecutor.create(threads, strategy), "tpg " + strategy);
            }
        };
    }
}
