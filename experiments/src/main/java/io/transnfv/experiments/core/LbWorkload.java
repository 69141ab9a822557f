package io.transnfv.experiments.core;

import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;

import java.util.SplittableRandom;

/**
 * A load-balancer-shaped batch: the transactions the shipped load balancer declares, without
 * the packets. A packet of an established flow refreshes its flow entry and adds its length to
 * the flow's byte count (two READ_MODIFYs on keys no other packet of the batch is likely to
 * touch); a new connection also CHOOSEs the least-loaded of {@value #CANDIDATES} candidate
 * servers, increments that server's active count, and records it in the flow entry: shared
 * keys (the servers' counters) and CHOOSE over candidates it does not pick. Built once per
 * trial; never on the measured path.
 *
 * <pre>
 *  established  RM flows[f] refresh                 RM bytes[f] + length
 *  new          RM flows[f] refresh  CHOOSE servers[c0..c3] least loaded, +1
 *               RM flows[f] := chosen server        RM bytes[f] + length
 * </pre>
 */
final class LbWorkload
{
    static final int FLOWS = 0;
    static final int BYTES = 1;
    static final int SERVERS = 2;
    static final int CANDIDATES = 4;

    static final StateFunction REFRESH = (current, ctx) -> current == 0 ? 0 : (current | 1L << 40);
    static final StateFunction ADD_LENGTH = (current, ctx) -> current + ctx.operand();
    static final StateFunction INCREMENT = (current, ctx) -> current + 1;
    static final ChooseFunction LEAST_LOADED = ctx ->
    {
        int best = 0;
        for (int i = 1; i < ctx.candidateCount(); i++)
        {
            if (ctx.candidateValue(i) < ctx.candidateValue(best))
            {
                best = i;
            }
        }
        return best;
    };
    static final StateFunction ASSIGN = (current, ctx) ->
    {
        final int picked = ctx.chosenBy(1);
        return picked == ChooseFunction.NONE ? current : ctx.operand() * CANDIDATES + picked + 1;
    };

    private LbWorkload()
    {
    }

    static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("lb", new TableSpec("flows", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "flow to server"));
        catalog.add("lb", new TableSpec("bytes", TableScope.PER_FLOW, KeyKind.FLOW, 0L, "bytes per flow"));
        catalog.add("lb", new TableSpec("active", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "active connections per server"));
        return catalog;
    }

    /**
     * @param operations about this many operations (established packets declare 2, new ones 4).
     * @param flows      flows the packets belong to, uniformly.
     * @param servers    servers in the pool; candidates are drawn uniformly from it.
     * @param newRatio   share of packets that open a connection.
     */
    static TransactionLog batch(final int operations, final int flows, final int servers, final double newRatio, final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final TransactionLog log = new TransactionLog(operations / 2 + 1, operations + 1);
        int declared = 0;
        for (int i = 0; declared < operations; i++)
        {
            final long ts = rnd.nextInt(16) == 0 ? Math.max(0, i - rnd.nextInt(8)) * 100L : i * 100L;
            final long flow = rnd.nextInt(flows);
            final long length = 64 + rnd.nextInt(1_437);
            log.begin(ts, i, null);
            log.readModify(FLOWS, flow, REFRESH, 0L);
            if (rnd.nextDouble() < newRatio)
            {
                log.choose(SERVERS, LEAST_LOADED, INCREMENT, 0L);
                for (int c = 0; c < CANDIDATES; c++)
                {
                    log.candidate(rnd.nextInt(servers));
                }
                log.readModify(FLOWS, flow, ASSIGN, flow);
                declared += 2;
            }
            log.readModify(BYTES, flow, ADD_LENGTH, length);
            log.end();
            declared += 2;
        }
        return log;
    }
}
