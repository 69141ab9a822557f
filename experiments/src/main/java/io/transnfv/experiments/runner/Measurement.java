package io.transnfv.experiments.runner;

import java.util.List;
import java.util.Locale;

/**
 * One point's result over its repetitions: one row of {@code data.csv}. Throughput is the
 * median of the repetitions with their min and max; latency percentiles are medians over
 * the repetitions of each run's HdrHistogram percentile. A share or count that an executor
 * does not expose is {@code NaN} (an empty CSV cell).
 *
 * @param experiment         the experiment's label.
 * @param point              the configuration.
 * @param packets            packets per run.
 * @param transactions       transactions per run (one per packet and VNF visited).
 * @param repetitions        measured runs.
 * @param ppsMedian          packets per second, median.
 * @param ppsMin             packets per second, slowest run.
 * @param ppsMax             packets per second, fastest run.
 * @param tpsMedian          transactions per second, median.
 * @param p50Us              latency p50, microseconds.
 * @param p99Us              latency p99, microseconds.
 * @param p999Us             latency p99.9, microseconds.
 * @param recordDivergences  packets whose record differs from the oracle's (warm-up run).
 * @param stateDivergences   final state entries that differ from the oracle's (warm-up run).
 * @param aborts             aborted transactions per run.
 * @param stateAccessShare   the engine: share of worker time in the state access phase.
 * @param syncShare          parallel baselines: share of wall time waiting for workers at batch ends.
 * @param lockWaitsPer1kTxn  CHC-style: contended lock acquisitions per 1,000 transactions.
 * @param loadBefore         the highest one-minute load average before a run of the point.
 * @param loadAfter          the highest one-minute load average after a run of the point.
 * @param busy               true if the machine was busy before a run (see {@code MachineInfo.busy}):
 *                           the point's ratios are not to be trusted.
 * @param breakdown          the engine: worker time per packet by category (median of the runs).
 * @param offeredPps         {@code latency}, paced points: the offered rate in packets per second;
 *                           {@code NaN} elsewhere.
 * @param achievedPps        {@code latency}: packets delivered to the executor per second of wall
 *                           time, median of the runs; {@code NaN} for the other experiments.
 * @param dropRate           {@code latency}: packets dropped at the full receive ring over packets
 *                           offered ({@code rx_missed / offered}), median of the runs, 0 unpaced;
 *                           {@code NaN} for the other experiments.
 * @param p99MinUs           latency p99 of the run with the lowest, microseconds (the band's low edge).
 * @param p99MaxUs           latency p99 of the run with the highest, microseconds (the band's high edge).
 */
public record Measurement(
    String experiment, Point point, long packets, long transactions, int repetitions,
    double ppsMedian, double ppsMin, double ppsMax, double tpsMedian,
    double p50Us, double p99Us, double p999Us,
    long recordDivergences, long stateDivergences, long aborts,
    double stateAccessShare, double syncShare, double lockWaitsPer1kTxn,
    double loadBefore, double loadAfter, boolean busy, EngineBreakdown breakdown,
    double offeredPps, double achievedPps, double dropRate, double p99MinUs, double p99MaxUs, List<TenantFigures> tenants)
{
    /**
     * One tenant's figures at a point of the tenants experiment (medians over the runs).
     *
     * @param name  the tenant.
     * @param pps   packets of the tenant its limiter passed into its chain, per second of the run's wall time.
     * @param p99Us the p99 latency of its sampled packets; NaN if none was sampled.
     */
    public record TenantFigures(String name, double pps, double p99Us)
    {
    }

    /** Freezes the list. */
    public Measurement
    {
        tenants = List.copyOf(tenants);
    }

    /** The CSV header, matching {@link #toCsv()}. */
    public static final String CSV_HEADER = "experiment,chain,servers,new_conn_ratio,threads,batch_txns,executor,"
        + "packets,transactions,repetitions,pps_median,pps_min,pps_max,tps_median,p50_us,p99_us,p999_us,"
        + "record_divergences,state_divergences,aborts,state_access_share,sync_share,lock_waits_per_1k_txn,"
        + "load_before,load_after,busy,"
        + breakdownColumns()
        + ",offered_load,offered_pps,achieved_pps,drop_rate,p99_min_us,p99_max_us";

    private static String breakdownColumns()
    {
        final StringBuilder columns = new StringBuilder();
        for (final String category : EngineBreakdown.CATEGORIES)
        {
            columns.append(columns.length() == 0 ? "" : ",").append(category.replace(' ', '_').replace('-', '_')).append("_ns_per_packet");
        }
        return columns.toString();
    }

    /** @return this row in CSV. */
    public String toCsv()
    {
        return String.join(",", experiment, point.chain(), Integer.toString(point.servers()),
            number(point.newConnRatio()), Integer.toString(point.threads()), Integer.toString(point.batchTxns()),
            point.executor().label(), Long.toString(packets), Long.toString(transactions), Integer.toString(repetitions),
            number(ppsMedian), number(ppsMin), number(ppsMax), number(tpsMedian),
            number(p50Us), number(p99Us), number(p999Us),
            Long.toString(recordDivergences), Long.toString(stateDivergences), Long.toString(aborts),
            number(stateAccessShare), number(syncShare), number(lockWaitsPer1kTxn),
            number(loadBefore), number(loadAfter), Boolean.toString(busy))
            + "," + breakdownCells()
            + "," + String.join(",", point.paced() ? number(point.offeredLoad()) : "", number(offeredPps),
                number(achievedPps), number(dropRate), number(p99MinUs), number(p99MaxUs));
    }

    private String breakdownCells()
    {
        final String[] cells = new String[breakdown.nsPerPacket().length];
        for (int c = 0; c < cells.length; c++)
        {
            cells[c] = number(breakdown.nsPerPacket()[c]);
        }
        return String.join(",", cells);
    }

    private static String number(final double value)
    {
        if (Double.isNaN(value))
        {
            return "";
        }
        return value == Math.rint(value) && Math.abs(value) < 1e15
            ? Long.toString((long)value) : String.format(Locale.ROOT, "%.4f", value);
    }
}
