package io.transnfv.experiments.core;

import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.distribution.ZipfDistribution;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;

import java.util.SplittableRandom;

/**
 * The benchmarks' batch: transactions of two READ_MODIFY operations on one table, the second
 * with the first's key as a parameter (a counter update plus a dependent one, as a
 * load-balancer or NAT transaction would do), keys drawn with Zipf skew over the key space,
 * arrival slightly out of timestamp order. Built once per trial; never on the measured path.
 */
final class CoreWorkload
{
    static final StateFunction ADD = (current, ctx) -> current + ctx.operand() + (ctx.paramCount() > 0 ? ctx.param(0) & 1 : 0);

    private CoreWorkload()
    {
    }

    static TableCatalog catalog()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("bench", new TableSpec("counters", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "benchmark counters"));
        return catalog;
    }

    static TransactionLog batch(final int operations, final int keys, final double skew, final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final ZipfDistribution zipf = skew > 0 ? new ZipfDistribution(keys, skew) : null;
        final TransactionLog log = new TransactionLog(operations / 2 + 1, operations + 1);
        final int txns = Math.max(1, operations / 2);
        for (int i = 0; i < txns; i++)
        {
            // late packets: one in sixteen arrives up to 8 positions after its timestamp
            final long ts = rnd.nextInt(16) == 0 ? Math.max(0, i - rnd.nextInt(8)) * 100L : i * 100L;
            log.begin(ts, i, null);
            final long a = key(rnd, keys, zipf);
            final long b = key(rnd, keys, zipf);
            log.readModify(0, a, ADD, 1);
            log.readModify(0, b, ADD, 2);
            log.param(0, a);
            log.end();
        }
        return log;
    }

    private static long key(final SplittableRandom rnd, final int keys, final ZipfDistribution zipf)
    {
        return zipf == null ? rnd.nextInt(keys) : zipf.rank(rnd.nextDouble());
    }
}
