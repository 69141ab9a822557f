package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.source.PacketSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Checks chain output equivalence: runs the serial oracle and a candidate executor over the
 * same traffic and compares every packet's record and the final state. Memory stays small
 * on long runs: the oracle's records are kept as 64-bit hashes, the text of a diverging
 * record is recovered by running again up to it, and the final states are streamed (the
 * oracle's to a temporary file, the candidate's compared with it line by line), never held
 * whole in memory.
 */
public final class EquivalenceCheck
{
    private EquivalenceCheck()
    {
    }

    /**
     * The outcome of one comparison.
     *
     * @param packets           packets compared.
     * @param divergingSequence the position in the output of the first record that differs, or
     *                          -1: the packet's arrival index, unless fragments held at the
     *                          chain's entry moved records after it.
     * @param oracleRecord      the oracle's record of that packet (null when none differ).
     * @param candidateRecord   the candidate's record of that packet (null when none differ).
     * @param stateDifference   the first line where the state dumps differ, as
     *                          {@code oracle: ... / candidate: ...}, or null.
     * @param candidate         the candidate's description.
     * @param oracleCheckers    what the chain's state checkers found in the oracle's run (at its
     *                          punctuations and on its final state).
     * @param candidateCheckers the same in the candidate's run, or null if it cannot run them.
     * @param differingPackets  how many records differ from the oracle's at the same position
     *                          (0 when equivalent); what a relaxed consistency hint
     *                          ({@code stale-reads}) costs.
     */
    public record Result(
        long packets, long divergingSequence, String oracleRecord, String candidateRecord, String stateDifference,
        String candidate, CheckerReport oracleCheckers, CheckerReport candidateCheckers, long differingPackets)
    {
        /** @return true if the checkers held in both runs. */
        public boolean checkersHeld()
        {
            return oracleCheckers.held() && (candidateCheckers == null || candidateCheckers.held());
        }

        /**
         * @return true if both runs' checkers found the same violations (checker, count, first key,
         *         message and check, keys), as they must: they run at the same packet positions.
         */
        public boolean checkersAgree()
        {
            return candidateCheckers == null || (oracleCheckers.violations().equals(candidateCheckers.violations())
                && oracleCheckers.checks() == candidateCheckers.checks());
        }

        /** @return true if every record and the final state are equal. */
        public boolean equivalent()
        {
            return divergingSequence < 0 && stateDifference == null;
        }
    }

    /** Opens a fresh source over the same traffic each time it is called. */
    @FunctionalInterface
    public interface SourceOpener
    {
        /** @return a new source positioned at the first packet. */
        PacketSource open() throws IOException;
    }

    /**
     * @param chain     the chain to run.
     * @param traffic   opens the same traffic for each run.
     * @param candidate creates the executor to judge.
     * @return the comparison.
     * @throws IOException if the traffic cannot be read.
     */
    public static Result compare(
        final ChainSpec chain, final SourceOpener traffic, final Function<ChainSpec, ChainExecutor> candidate)
        throws IOException
    {
        return compare(chain, traffic, candidate, executor ->
        {
        });
    }

    /**
     * As {@link #compare(ChainSpec, SourceOpener, Function)}, with both executors prepared alike
     * before they run: e.g. given the same parameter changes at the same packet positions
     * ({@link ChainExecutor#paramChanges()}).
     *
     * @param prepare called on the oracle and on the candidate before each runs.
     */
    public static Result compare(
        final ChainSpec chain, final SourceOpener traffic, final Function<ChainSpec, ChainExecutor> candidate,
        final Consumer<ChainExecutor> prepare)
        throws IOException
    {
        final RecordHashes oracleHashes = new RecordHashes();
        final CheckerReport oracleCheckers;
        final Path oracleState = Files.createTempFile("transnfv-oracle-state", ".txt");
        try
        {
            try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = traffic.open();
                 Writer out = Files.newBufferedWriter(oracleState, StandardCharsets.UTF_8))
            {
                prepare.accept(oracle);
                oracle.run(source, oracleHashes.recorder(oracle));
                oracle.writeState(out);
                oracleCheckers = oracle.finalCheck().orElseThrow();
            }
            final Divergence divergence = new Divergence(oracleHashes);
            final String stateDifference;
            final String description;
            final CheckerReport candidateCheckers;
            try (ChainExecutor executor = candidate.apply(chain); PacketSource source = traffic.open();
                 BufferedReader oracleLines = Files.newBufferedReader(oracleState, StandardCharsets.UTF_8))
            {
                description = executor.describe();
                prepare.accept(executor);
                executor.run(source, divergence.checker(executor));
                candidateCheckers = executor.finalCheck().orElse(null);
                final StateDumpComparison comparison = new StateDumpComparison(oracleLines);
                executor.writeState(comparison);
                stateDifference = comparison.finish();
            }
            String oracleRecord = null;
            if (divergence.sequence >= 0)
            {
                oracleRecord = recordOf(chain, traffic, divergence.sequence, prepare);
            }
            else if (divergence.count != oracleHashes.count)
            {
                oracleRecord = "(the oracle finished " + oracleHashes.count + " packets, the candidate " + divergence.count
                    + ")";
                divergence.sequence = Math.min(divergence.count, oracleHashes.count);
                divergence.record = "(missing)";
            }
            return new Result(oracleHashes.count, divergence.sequence, oracleRecord, divergence.record, stateDifference,
                description, oracleCheckers, candidateCheckers,
                divergence.differing + Math.abs(divergence.count - oracleHashes.count));
        }
        finally
        {
            Files.deleteIfExists(oracleState);
        }
    }

    private static String recordOf(
        final ChainSpec chain, final SourceOpener traffic, final long position, final Consumer<ChainExecutor> prepare)
        throws IOException
    {
        final String[] found = new String[1];
        final long[] seen = new long[1];
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = traffic.open())
        {
            prepare.accept(oracle);
            final StringBuilder line = new StringBuilder();
            oracle.run(source, (record, buffer, packet) ->
            {
                if (seen[0]++ == position)
                {
                    line.setLength(0);
                    found[0] = record.format(line, oracle.runtime(), packet).toString();
                }
            });
        }
        return found[0];
    }

    private static long hash(final CharSequence s)
    {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++)
        {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    private static final class RecordHashes
    {
        private long[] hashes = new long[1 << 16];
        private long count;

        PacketListener recorder(final ChainExecutor executor)
        {
            final StringBuilder line = new StringBuilder(256);
            return (record, buffer, packet) ->
            {
                line.setLength(0);
                record.format(line, executor.runtime(), packet);
                if (count == hashes.length)
                {
                    hashes = Arrays.copyOf(hashes, hashes.length * 2);
                }
                hashes[(int)count++] = hash(line);
            };
        }
    }

    private static final class Divergence
    {
        private final RecordHashes oracle;
        private long sequence = -1;
        private String record;
        private long count;
        private long differing;

        Divergence(final RecordHashes oracle)
        {
            this.oracle = oracle;
        }

        PacketListener checker(final ChainExecutor executor)
        {
            final StringBuilder line = new StringBuilder(256);
            return (rec, buffer, packet) ->
            {
                final long index = count++;
                line.setLength(0);
                rec.format(line, executor.runtime(), packet);
                // records are compared in output order; each record's text starts with its sequence
                if (index >= oracle.count)
                {
                    // counted with the missing ones
                    if (sequence < 0)
                    {
                        sequence = index;
                        record = line.toString();
                    }
                }
                else if (hash(line) != oracle.hashes[(int)index])
                {
                    differing++;
                    if (sequence < 0)
                    {
                        sequence = index;
                        record = line.toString();
                    }
                }
            };
        }
    }
}
