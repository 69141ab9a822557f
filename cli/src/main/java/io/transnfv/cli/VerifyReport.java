package io.transnfv.cli;

import io.transnfv.engine.report.CheckerReport;

import java.util.List;

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
 * @param exitStatus       the command's exit status: 0 equivalent, 1 not equivalent, 4 equivalent but a
 *                         state checker violated.
 * @param checksTotal      how many checks ran (strategies × seeds).
 * @param checksEquivalent how many of them were equivalent.
 * @param checks           each check, in the order run.
 */
record VerifyReport(int schemaVersion, String transnfvVersion, String chain, int executorThreads, boolean equivalent,
                    int exitStatus, int checksTotal, int checksEquivalent, List<Check> checks)
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
     * @param engine               the engine's description.
     * @param firstDivergingPacket the sequence number of the first packet whose records differ, or null.
     * @param oracleRecord         that packet's record from the oracle, or null.
     * @param engineRecord         that packet's record from the engine, or null.
     * @param stateDifference      the first differing state entry, or null.
     * @param reproduce            the command that repeats this check, when it failed.
     * @param checkers             the state checkers that ran on both (every checker of the chain).
     * @param oracleCheckerViolations the checkers violated in the oracle's run (empty if all held).
     * @param engineCheckerViolations the checkers violated in the engine's run (empty if all held).
     */
    record Check(String strategy, Long seed, String pcap, long packets, boolean equivalent, String engine,
                 Long firstDivergingPacket, String oracleRecord, String engineRecord, String stateDifference, String reproduce,
                 List<String> checkers, List<CheckerReport.Violation> oracleCheckerViolations,
                 List<CheckerReport.Violation> engineCheckerViolations)
    {
    }
}
