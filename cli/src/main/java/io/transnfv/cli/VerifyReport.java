package io.transnfv.cli;

import io.transnfv.engine.report.CheckerReport;

import java.util.List;
import java.util.Map;

/**
 * What {@code verify --json} prints: the verdict over all checks and each check's outcome.
 * Fields appear in the JSON in snake_case, absent ones (null) left out; documented in
 * {@code docs/user-guide.md}.
 *
 * @param schemaVersion    {@link #SCHEMA_VERSION}; raised when a field changes meaning or goes.
 * @param transnfvVersion  the product version that checked.
 * @param chain            the chain's name.
 * @param executorThreads  the engine's executor threads.
 * @param equivalent       true if every check found the engine equal to the oracle.
 * @param exitStatus       the command's exit status: 0 equivalent (or, relaxed, every difference one that
 *                         stale reads allow), 1 not equivalent, 4 equivalent but a state checker violated.
 * @param checksTotal      how many checks ran (strategies × seeds).
 * @param checksEquivalent how many of them were equivalent.
 * @param checksWithinStaleReads how many differed, but only as the chain's stale-read tables allow; null
 *                         unless the comparison was relaxed.
 * @param staleReads       the chain's tables under {@code { stale-reads: b }} ({@code <vnf>.<table>}) with
 *                         their bound b in batches, or null if it has none.
 * @param relaxed          true if differences were judged against the stale-read tables, false if
 *                         {@code --strict} compared a chain with such tables exactly; null if it has none.
 * @param checks           each check, in the order run.
 */
record VerifyReport(int schemaVersion, String transnfvVersion, String chain, int executorThreads, boolean equivalent,
                    int exitStatus, int checksTotal, int checksEquivalent, Integer checksWithinStaleReads,
                    Map<String, Integer> staleReads, Boolean relaxed, List<Check> checks)
{
    /** The version of this report's layout. */
    static final int SCHEMA_VERSION = 2;

    /**
     * One comparison of the engine with the oracle.
     *
     * @param strategy             the engine's scheduling strategy.
     * @param seed                 the generator's seed, or null for a capture.
     * @param pcap                 the capture, or null for generated traffic.
     * @param packets              packets compared.
     * @param equivalent           true if every record and the final state were equal, and both runs' state
     *                             checkers found the same violations.
     * @param withinStaleReads     relaxed comparison only (else null): true if the check was not equivalent
     *                             but every packet came out once, in the oracle's order, and every checker
     *                             that held in the oracle's run held in the engine's: the check passes.
     * @param engine               the engine's description.
     * @param differingPackets     packets whose record differs from the oracle's (0 when equivalent).
     * @param misplacedPackets     packets missing, duplicated or out of the oracle's order (output positions
     *                             holding another packet, plus the difference in count).
     * @param differingStateEntries per table ({@code <vnf>.<table>}), the final state entries present in one
     *                             run only or with another value; empty when the states are equal.
     * @param unexplainedPackets   relaxed comparison only (else null): differing records of packets that went
     *                             through no VNF a stale read reaches (one with a stale-read table, or
     *                             downstream of one), and misplaced packets; must be 0 to pass.
     * @param unexplainedStateEntries relaxed comparison only (else null): differing state entries of VNFs no
     *                             stale read reaches; must be 0 to pass.
     * @param firstDivergingPacket the sequence number of the first packet whose records differ, or null.
     * @param oracleRecord         that packet's record from the oracle, or null.
     * @param engineRecord         that packet's record from the engine, or null.
     * @param stateDifference      the first differing state entry, or null.
     * @param reproduce            the command that repeats this check, when it failed.
     * @param checkers             the state checkers that ran on both (every checker of the chain).
     * @param oracleCheckerViolations the checkers violated in the oracle's run (empty if all held).
     * @param engineCheckerViolations the checkers violated in the engine's run (empty if all held).
     */
    record Check(String strategy, Long seed, String pcap, long packets, boolean equivalent, Boolean withinStaleReads,
                 String engine, long differingPackets, long misplacedPackets, Map<String, Long> differingStateEntries,
                 Long unexplainedPackets, Long unexplainedStateEntries,
                 Long firstDivergingPacket, String oracleRecord, String engineRecord, String stateDifference, String reproduce,
                 List<String> checkers, List<CheckerReport.Violation> oracleCheckerViolations,
                 List<CheckerReport.Violation> engineCheckerViolations)
    {
    }
}
