package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.egress.PacketListener;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.report.CheckerReport;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.vnf.instance.TableCatalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
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
     * @param misplacedPackets  how many output positions hold another packet than the oracle's
     *                          there (by sequence number), plus the difference in packet count:
     *                          packets missing, duplicated or out of the oracle's order, which no
     *                          consistency hint explains (0 when each packet has one record, in
     *                          the oracle's order, whatever its contents).
     * @param differingStateEntries per table (qualified name, in table order), the final state
     *                          entries present in one run only or with another value; tables
     *                          where none differ are absent (empty when the states are equal).
     * @param unexplainedPackets differing records that a stale read cannot explain: of packets
     *                          that, in either run, went through no VNF a stale read reaches
     *                          ({@link #staleReadReach}), or whose path up to the first such VNF, or
     *                          whose tags, alerts or aborts from VNFs outside the reach, differ;
     *                          all differing records when the chain has no stale-reads table.
     * @param unexplainedStateEntries differing final state entries of tables whose VNF no stale
     *                          read reaches; all of them when the chain has no stale-reads table.
     */
    public record Result(
        long packets, long divergingSequence, String oracleRecord, String candidateRecord, String stateDifference,
        String candidate, CheckerReport oracleCheckers, CheckerReport candidateCheckers, long differingPackets,
        long misplacedPackets, Map<String, Long> differingStateEntries, long unexplainedPackets,
        long unexplainedStateEntries)
    {
        /** Keeps the per-table counts as given (their order is the tables'), unmodifiable. */
        public Result
        {
            differingStateEntries = Collections.unmodifiableMap(new LinkedHashMap<>(differingStateEntries));
        }

        /** @return the final state entries that differ, over every table. */
        public long differingStateEntryCount()
        {
            return differingStateEntries.values().stream().mapToLong(Long::longValue).sum();
        }

        /**
         * @return true if the candidate output one record per packet, in the oracle's order: every
         *         difference is in a record's contents or in the state, none in which packets came out.
         */
        public boolean samePackets()
        {
            return misplacedPackets == 0;
        }

        /**
         * @return true if the runs differ, but only as the chain's stale-reads tables allow: every
         *         packet came out once, in the oracle's order, and every differing record and state
         *         entry is of a VNF a stale read reaches. Always false for a chain without a
         *         stale-reads table, and for equivalent runs.
         */
        public boolean withinStaleReads()
        {
            return !equivalent() && samePackets() && unexplainedPackets == 0 && unexplainedStateEntries == 0;
        }

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

    /**
     * The VNFs whose records and state a stale read may change: those with a stale-reads table
     * and every VNF downstream of one. A VNF outside this set sees the same packets in the same
     * order as in the oracle's run (tables belong to one VNF), so its state and its part of every
     * record must equal the oracle's.
     *
     * @return their names; empty when the chain has no stale-reads table.
     */
    public static Set<String> staleReadReach(final ChainSpec chain)
    {
        final Set<String> reach = new HashSet<>();
        final ArrayDeque<String> next = new ArrayDeque<>();
        for (final VnfNode vnf : chain.vnfs())
        {
            if (!vnf.staleReads().isEmpty() && reach.add(vnf.name()))
            {
                next.add(vnf.name());
            }
        }
        while (!next.isEmpty())
        {
            final String from = next.poll();
            for (final EdgeSpec edge : chain.edges())
            {
                if (edge.from().equals(from) && reach.add(edge.to()))
                {
                    next.add(edge.to());
                }
            }
        }
        return Set.copyOf(reach);
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
        final Set<String> reach = staleReadReach(chain);
        final RecordHashes oracleHashes = new RecordHashes(reach);
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
            final Map<String, Long> differingEntries;
            final TableCatalog catalog;
            final String description;
            final CheckerReport candidateCheckers;
            try (ChainExecutor executor = candidate.apply(chain); PacketSource source = traffic.open();
                 BufferedReader oracleLines = Files.newBufferedReader(oracleState, StandardCharsets.UTF_8);
                 BufferedReader oracleEntries = Files.newBufferedReader(oracleState, StandardCharsets.UTF_8))
            {
                description = executor.describe();
                prepare.accept(executor);
                executor.run(source, divergence.checker(executor));
                candidateCheckers = executor.finalCheck().orElse(null);
                final StateDumpComparison comparison =
                    new StateDumpComparison(oracleLines, oracleEntries, executor.runtime().catalog());
                executor.writeState(comparison);
                stateDifference = comparison.finish();
                differingEntries = comparison.differingEntries();
                catalog = executor.runtime().catalog();
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
            long unexplainedEntries = 0;
            for (int t = 0; t < catalog.size(); t++)
            {
                if (!reach.contains(catalog.owner(t)))
                {
                    unexplainedEntries += differingEntries.getOrDefault(catalog.qualifiedName(t), 0L);
                }
            }
            final long missing = Math.abs(divergence.count - oracleHashes.count);
            return new Result(oracleHashes.count, divergence.sequence, oracleRecord, divergence.record, stateDifference,
                description, oracleCheckers, candidateCheckers, divergence.differing + missing,
                divergence.misplaced + missing, differingEntries, divergence.unexplained + missing, unexplainedEntries);
        }
        finally
        {
            Files.deleteIfExists(oracleState);
        }
    }

    /** {@link #upstreamSignature} of a packet that went through no VNF a stale read reaches. */
    private static final long NOT_REACHED = 0L;

    /** @return per VNF instance of {@code executor}'s chain: whether it is in {@code reach}. */
    private static boolean[] reachedInstances(final ChainExecutor executor, final Set<String> reach)
    {
        final boolean[] reached = new boolean[executor.runtime().size()];
        for (int i = 0; i < reached.length; i++)
        {
            reached[i] = reach.contains(executor.runtime().instance(i).name());
        }
        return reached;
    }

    /**
     * What the VNFs that no stale read reaches did to a packet, which must be the same in both
     * runs: its path up to and including the first VNF in the reach, and the tags, alerts and
     * aborts of the VNFs outside it. (A drop by a VNF outside the reach ends the path before it.)
     *
     * @return a hash of it, or {@link #NOT_REACHED} if the packet met no VNF in the reach.
     */
    private static long upstreamSignature(final PacketRecord record, final boolean[] reached)
    {
        long h = 0xcbf29ce484222325L;
        boolean met = false;
        for (int i = 0; i < record.pathLength() && !met; i++)
        {
            met = reached[record.path(i)];
            h = (h ^ record.path(i)) * 0x100000001b3L;
        }
        if (!met)
        {
            return NOT_REACHED;
        }
        for (int i = 0; i < record.tagCount(); i++)
        {
            if (!reached[record.tagInstance(i)])
            {
                h = (((h ^ record.tagInstance(i)) * 0x100000001b3L ^ record.tagId(i)) * 0x100000001b3L ^ record.tagValue(i))
                    * 0x100000001b3L;
            }
        }
        for (int i = 0; i < record.alertCount(); i++)
        {
            if (!reached[record.alertInstance(i)])
            {
                h = (((h ^ ~record.alertInstance(i)) * 0x100000001b3L ^ record.alertType(i)) * 0x100000001b3L
                    ^ record.alertSubject(i)) * 0x100000001b3L;
            }
        }
        for (int i = 0; i < record.abortCount(); i++)
        {
            if (!reached[record.abortInstance(i)])
            {
                h = ((h ^ record.abortInstance(i) + 0x10000L) * 0x100000001b3L ^ record.abortReason(i)) * 0x100000001b3L;
            }
        }
        return h == NOT_REACHED ? 1L : h;
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
        /** Each record's packet (its sequence number), by output position. */
        private long[] sequences = new long[1 << 16];
        /** By output position: {@link #upstreamSignature} of the record, when the chain has stale reads. */
        private long[] upstream;
        private final Set<String> reach;
        private long count;

        RecordHashes(final Set<String> reach)
        {
            this.reach = reach;
            upstream = reach.isEmpty() ? null : new long[1 << 16];
        }

        PacketListener recorder(final ChainExecutor executor)
        {
            final StringBuilder line = new StringBuilder(256);
            final boolean[] reached = reachedInstances(executor, reach);
            return (record, buffer, packet) ->
            {
                line.setLength(0);
                record.format(line, executor.runtime(), packet);
                if (count == hashes.length)
                {
                    hashes = Arrays.copyOf(hashes, hashes.length * 2);
                    sequences = Arrays.copyOf(sequences, sequences.length * 2);
                    upstream = upstream == null ? null : Arrays.copyOf(upstream, upstream.length * 2);
                }
                if (upstream != null)
                {
                    upstream[(int)count] = upstreamSignature(record, reached);
                }
                sequences[(int)count] = record.sequence();
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
        private long misplaced;
        private long unexplained;

        Divergence(final RecordHashes oracle)
        {
            this.oracle = oracle;
        }

        PacketListener checker(final ChainExecutor executor)
        {
            final StringBuilder line = new StringBuilder(256);
            final boolean[] reached = reachedInstances(executor, oracle.reach);
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
                    if (rec.sequence() != oracle.sequences[(int)index])
                    {
                        // counted with the misplaced ones
                        misplaced++;
                    }
                    else if (oracle.upstream == null || oracle.upstream[(int)index] == NOT_REACHED
                        || oracle.upstream[(int)index] != upstreamSignature(rec, reached))
                    {
                        unexplained++;
                    }
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
