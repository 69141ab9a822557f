package io.transnfv.cli;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.flink.ChainSource;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The chain options of a command, as text, so that a Flink job can ship them and every task
 * resolve the same chain again ({@link ChainSource}): paths are not serializable, options are.
 */
record ChainRecipe(String chain, String pcap, int loops, String generate, Integer threads, Integer batchTransactions,
    String batchInterval, String latencyTarget, String errorBound, String errorWindow, String batchDeadline) implements ChainSource
{
    private static final long serialVersionUID = 1L;

    /** @return the recipe of {@code options} as the command line gave them. */
    static ChainRecipe of(final ChainOptions options)
    {
        return new ChainRecipe(text(options.chain), text(options.pcap), options.loops, options.generate, options.threads,
            options.batchTransactions, options.batchInterval, options.latencyTarget, options.errorBound, options.errorWindow,
            options.batchDeadline);
    }

    @Override
    public ChainSpec load() throws IOException
    {
        final ChainOptions options = new ChainOptions();
        options.chain = chain == null ? null : Path.of(chain);
        options.pcap = pcap == null ? null : Path.of(pcap);
        options.loops = loops;
        options.generate = generate;
        options.threads = threads;
        options.batchTransactions = batchTransactions;
        options.batchInterval = batchInterval;
        options.latencyTarget = latencyTarget;
        options.errorBound = errorBound;
        options.errorWindow = errorWindow;
        options.batchDeadline = batchDeadline;
        return options.resolve();
    }

    private static String text(final Path path)
    {
        return path == null ? null : path.toString();
    }
}
