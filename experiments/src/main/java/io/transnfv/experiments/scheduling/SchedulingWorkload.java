package io.transnfv.experiments.scheduling;

import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.distribution.ZipfDistribution;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;

import java.util.SplittableRandom;

/**
 * Synthetic batches for the scheduling benchmark and the batch benchmark's load-balancer
 * workload, pre-generated once (never on the measured path). The generator's kind names a workload for the report only: executors never see it,
 * the decision model measures the batches' graphs.
 *
 * <pre>
 *  LB (p % new)   existing flow: READ conn[flow], READ_MODIFY bytes[flow]
 *                 new flow:      CHOOSE least-loaded of 5 random servers (load += 1),
 *                                READ_MODIFY conn[flow] := chosen server + 1
 *                 100,000 flows (Zipf 0.5), 64 servers
 *  UNIFORM        2 READ_MODIFY on keys uniform over 1,000,000 (the second with the first as parameter)
 *  SKEWED         the same over 1,000 keys, Zipf 1.2
 *  ABORTS         the same over 10,000 keys, Zipf 0.8; a function aborts 16 % of the transactions on
 *                 empty state, climbing to ~42 % (a key whose write aborted keeps its value)
 *  MONITOR        a traffic monitor's four counters per packet, each READ_MODIFY += bytes:
 *                 flow (uniform over 100,000), source host (Zipf 1.0 over 1,000),
 *                 destination port (Zipf 1.0 over 1,000) and the total (one key)
 * </pre>
 *
 * MONITOR is the only one whose transactions are longer than two operations, and every one of
 * them writes the same key: the shape where eager abort handling (a version is readable only
 * once its whole transaction has finished) holds a hot key's chain back and lazy does not.
 */
public final class SchedulingWorkload
{
    static final int CONN = 0;
    static final int LOAD = 1;
    static final int BYTES = 2;
    static final int COUNTERS = 3;
    static final int FLOW_BYTES = 4;
    static final int HOST_BYTES = 5;
    static final int PORT_BYTES = 6;
    static final int TOTAL_BYTES = 7;
    static final int MONITOR_FLOWS = 100_000;
    static final int MONITOR_HOSTS = 1_000;
    static final int MONITOR_PORTS = 1_000;
    static final int SERVERS = 64;
    static final int FLOWS = 100_000;

    /** Least-loaded candidate, ties to the lowest index. */
    static final ChooseFunction LEAST_LOADED = ctx ->
    {
        int best = 0;
        long bestLoad = ctx.candidateValue(0);
        for (int i = 1; i < ctx.candidateCount(); i++)
        {
            final long load = ctx.candidateValue(i);
            if (load < bestLoad)
            {
                best = i;
                bestLoad = load;
            }
        }
        return best;
    };
    static final StateFunction INCREMENT = (current, ctx) -> current + 1;
    static final StateFunction ASSIGN_CHOSEN = (current, ctx) -> ctx.chosenBy(0) + 1 + (ctx.operand() << 8);
    static final StateFunction ADD_BYTES = (current, ctx) -> current + ctx.operand();
    static final StateFunction ADD = (current, ctx) -> current + ctx.operand() + (ctx.paramCount() > 0 ? ctx.param(0) & 1 : 0);
    static final StateFunction ADD_OR_ABORT = (current, ctx) ->
    {
        final long v = current + ctx.operand() + (ctx.paramCount() > 0 ? ctx.param(0) & 3 : 0);
        if ((v * 0x9E3779B97F4A7C15L >>> 60) < 2)
        {
            ctx.abort(1);
        }
        return v;
    };

    /** The kinds of batch. */
    /** The generators. */
    public enum Kind
    {
        LB, UNIFORM, SKEWED, ABORTS, MONITOR;

        /** @return operations per transaction. */
        int operationsPerTransaction()
        {
            return this == MONITOR ? 4 : 2;
        }
    }

    private SchedulingWorkload()
    {
    }

    /** @return the tables every kind's batches use. */
    public static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("lb", new TableSpec("conn", TableScope.PER_FLOW, KeyKind.INDEX, 0L, "flow -> server + 1"));
        catalog.add("lb", new TableSpec("load", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "server -> connections"));
        catalog.add("lb", new TableSpec("bytes", TableScope.PER_FLOW, KeyKind.INDEX, 0L, "flow -> bytes"));
        catalog.add("bench", new TableSpec("counters", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "counters"));
        catalog.add("monitor", new TableSpec("flow_bytes", TableScope.PER_FLOW, KeyKind.INDEX, 0L, "flow -> bytes"));
        catalog.add("monitor", new TableSpec("host_bytes", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "source host -> bytes"));
        catalog.add("monitor", new TableSpec("port_bytes", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "destination port -> bytes"));
        catalog.add("monitor", new TableSpec("total_bytes", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "0 -> bytes"));
        return catalog;
    }

    /**
     * @param kind       the generator.
     * @param newPercent LB only: the share of packets that open a connection.
     * @param operations operations per batch (approximately).
     */
    public static TransactionLog batch(final Kind kind, final int newPercent, final int operations, final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int txns = Math.max(1, operations / kind.operationsPerTransaction());
        final TransactionLog log = new TransactionLog(txns + 1, operations + 1);
        final ZipfDistribution zipf = switch (kind)
        {
            case LB -> new ZipfDistribution(FLOWS, 0.5);
            case UNIFORM -> null;
            case SKEWED -> new ZipfDistribution(1_000, 1.2);
            case ABORTS -> new ZipfDistribution(10_000, 0.8);
            case MONITOR -> new ZipfDistribution(MONITOR_HOSTS, 1.0);
        };
        for (int i = 0; i < txns; i++)
        {
            final long ts = seed * 10_000_000L + i * 100L;
            log.begin(ts, i, null);
            switch (kind)
            {
                case LB ->
                {
                    final long flow = zipf.rank(rnd.nextDouble()) + (rnd.nextInt(100) < newPercent ? (long)FLOWS * (1 + i) + seed * txns * FLOWS : 0);
                    if (flow < FLOWS)
                    {
                        log.read(CONN, flow);
                        log.readModify(BYTES, flow, ADD_BYTES, 64 + rnd.nextInt(1400));
                    }
                    else
                    {
                        log.choose(LOAD, LEAST_LOADED, INCREMENT, 0);
                        for (int c = 0; c < 5; c++)
                        {
                            log.candidate(rnd.nextInt(SERVERS));
                        }
                        log.readModify(CONN, flow, ASSIGN_CHOSEN, i & 0xFF);
                    }
                }
                case MONITOR ->
                {
                    final int bytes = 64 + rnd.nextInt(1400);
                    log.readModify(FLOW_BYTES, rnd.nextInt(MONITOR_FLOWS), ADD_BYTES, bytes);
                    log.readModify(HOST_BYTES, zipf.rank(rnd.nextDouble()), ADD_BYTES, bytes);
                    log.readModify(PORT_BYTES, zipf.rank(rnd.nextDouble()), ADD_BYTES, bytes);
                    log.readModify(TOTAL_BYTES, 0, ADD_BYTES, bytes);
                }
                case UNIFORM, SKEWED, ABORTS ->
                {
                    final long a = zipf == null ? rnd.nextInt(1_000_000) : zipf.rank(rnd.nextDouble());
                    final long b = zipf == null ? rnd.nextInt(1_000_000) : zipf.rank(rnd.nextDouble());
                    final StateFunction fn = kind == Kind.ABORTS ? ADD_OR_ABORT : ADD;
                    log.readModify(COUNTERS, a, fn, 1);
                    log.readModify(COUNTERS, b, fn, 2);
                    log.param(COUNTERS, a);
                }
            }
            log.end();
        }
        return log;
    }
}
