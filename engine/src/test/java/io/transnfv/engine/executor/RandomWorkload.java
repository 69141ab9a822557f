package io.transnfv.engine.executor;

import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.StateStore;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.distribution.ZipfDistribution;
import io.transnfv.vnf.instance.TableCatalog;

import java.util.Random;

/**
 * A seeded random workload: tables, Zipf-skewed keys, all five operation types, parameters
 * across tables, CHOOSE over 2 to 6 candidates, functions reading earlier results, state-
 * dependent aborts, out-of-order arrival and equal timestamps. Half of the workloads also have
 * an additive table, written only by ADDs (on a few keys, so that they pile up), whose deltas
 * read earlier results and may abort. {@link #fill} is deterministic
 * in its seed, so the oracle and the engine each get an identical log.
 */
final class RandomWorkload
{
    private static final long[] INITIAL_VALUES = {0L, -1L, 3L};
    private static final int[] KEY_SPACES = {1, 2, 8, 64, 1024, 65536};
    private static final double[] THETAS = {0.0, 0.6, 0.99, 1.4};
    private static final int[] ABORT_PERCENTS = {0, 0, 5, 20, 50};

    /** Bits of an operand: constant (16), abort percent (8), reference to an earlier op + 1 (8). */
    static long operand(final int constant, final int abortPercent, final int earlierOp)
    {
        return (constant & 0xFFFFL) | ((long)abortPercent << 16) | ((long)(earlierOp + 1) << 24);
    }

    static long mix(final long x)
    {
        long h = x * 0x9E3779B97F4A7C15L;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }

    private static long inputs(final long current, final FunctionContext ctx)
    {
        final long operand = ctx.operand();
        long v = current + (operand & 0xFFFF);
        for (int i = 0; i < ctx.paramCount(); i++)
        {
            v += ctx.param(i) * (i + 2);
        }
        final int ref = (int)((operand >>> 24) & 0xFF) - 1;
        if (ref >= 0)
        {
            v += ctx.after(ref) * 3 - ctx.before(ref) + ctx.chosenBy(ref);
        }
        return v;
    }

    private static void maybeAbort(final long v, final FunctionContext ctx, final int salt)
    {
        final int percent = (int)((ctx.operand() >>> 16) & 0xFF);
        if (percent > 0)
        {
            final long r = mix(v * 31 + salt);
            if (Math.floorMod(r, 100) < percent)
            {
                ctx.abort(1 + (int)Math.floorMod(r >>> 8, 7));
            }
        }
    }

    /** Small value domain: returns often to the initial values (deletes), aborts on state. */
    static final StateFunction SMALL = (current, ctx) ->
    {
        final long v = inputs(current, ctx);
        maybeAbort(v, ctx, 1);
        return Math.floorMod(v, 11) - 1;
    };

    /** Wide value domain: any misordering shows in the values. */
    static final StateFunction WIDE = (current, ctx) ->
    {
        final long v = inputs(current, ctx);
        maybeAbort(v, ctx, 2);
        return v * 31 + ctx.timestampNs() % 1000;
    };

    /** ADD delta: from the transaction's earlier results and the operand, never the target; may abort. */
    static final StateFunction DELTA = (zero, ctx) ->
    {
        final long v = inputs(zero, ctx);
        maybeAbort(v, ctx, 5);
        return Math.floorMod(v, 13) - 3;
    };

    /** ADD delta of -1, 0 or +1: a key's sum walks back to 0 now and then; may abort. */
    static final StateFunction SWING = (zero, ctx) ->
    {
        final long v = inputs(zero, ctx);
        maybeAbort(v, ctx, 6);
        return Math.floorMod(v, 3) - 1;
    };

    /**
     * DEFER (fire-and-forget) update: wide and order-sensitive, reads earlier results of its
     * transaction; an abort drops the update only.
     */
    static final StateFunction FORGOTTEN = (current, ctx) ->
    {
        final long v = inputs(current, ctx);
        maybeAbort(v, ctx, 7);
        return v * 31 + ctx.timestampNs() % 1000;
    };

    /** CHOOSE update: depends on the picked candidate's index and key. */
    static final StateFunction PICKED = (current, ctx) ->
    {
        final long v = inputs(current, ctx) + ctx.chosen() * 5 + (ctx.candidateKey(ctx.chosen()) & 7);
        maybeAbort(v, ctx, 3);
        return Math.floorMod(v, 97);
    };

    /** Least loaded candidate, ties to the lowest index; may abort on the loads. */
    static final ChooseFunction LEAST_LOADED = ctx ->
    {
        int best = 0;
        long sum = 0;
        for (int i = 0; i < ctx.candidateCount(); i++)
        {
            final long value = ctx.candidateValue(i);
            sum += value * (i + 1);
            if (value < ctx.candidateValue(best))
            {
                best = i;
            }
        }
        maybeAbort(sum, ctx, 4);
        return best;
    };

    /** A pick by hash of the candidates' values, sometimes none. */
    static final ChooseFunction HASHED = ctx ->
    {
        long h = ctx.timestampNs();
        for (int i = 0; i < ctx.candidateCount(); i++)
        {
            h = mix(h + ctx.candidateValue(i));
        }
        return (int)Math.floorMod(h, ctx.candidateCount() + 1) - 1;
    };

    final long seed;
    final int tables;
    final int keySpace;
    final double theta;
    final int abortPercent;
    final int disorder;
    final int batches;
    final int maxTransactions;
    /** A fourth key of the additive table, added to by {@link #SWING}; tests may start it small. */
    static final long EXTRA_ADDITIVE_KEY = 7L;

    /** The additive table's id (the last table), or -1 if the workload has none. */
    final int additive;
    /** The fire-and-forget table's id (after every other), written only by DEFERs, or -1 if the workload has none. */
    final int forgotten;
    /** The stale-reads table's id (after every other), or -1 if the workload has none. */
    final int stale;
    final TableCatalog catalog = new TableCatalog();
    private final ZipfDistribution zipf;

    RandomWorkload(final long seed, final int maxTransactionsCap)
    {
        this(seed, maxTransactionsCap, 0);
    }

    /** @param keySpaceOverride 0 for a random key space, else that many keys per table. */
    RandomWorkload(final long seed, final int maxTransactionsCap, final int keySpaceOverride)
    {
        this(seed, maxTransactionsCap, keySpaceOverride, false);
    }

    /**
     * @param keySpaceOverride 0 for a random key space, else that many keys per table.
     * @param fireAndForget    whether the workload also has a table written only by DEFERs (on a
     *                         few keys, so that they pile up), about one operation in four.
     */
    RandomWorkload(final long seed, final int maxTransactionsCap, final int keySpaceOverride, final boolean fireAndForget)
    {
        this(seed, maxTransactionsCap, keySpaceOverride, fireAndForget, false);
    }

    /**
     * @param keySpaceOverride 0 for a random key space, else that many keys per table.
     * @param fireAndForget    whether the workload also has a table written only by DEFERs.
     * @param staleReads       whether the workload also has a stale-reads table: four keys read by
     *                         STALE_READs, picked among by STALE_CHOOSEs and added to by ADDs,
     *                         about one operation in four; the results feed later functions.
     */
    RandomWorkload(final long seed, final int maxTransactionsCap, final int keySpaceOverride, final boolean fireAndForget,
        final boolean staleReads)
    {
        this.seed = seed;
        final Random rnd = new Random(seed);
        tables = 1 + rnd.nextInt(3);
        final int randomKeySpace = KEY_SPACES[rnd.nextInt(KEY_SPACES.length)];
        keySpace = keySpaceOverride > 0 ? keySpaceOverride : randomKeySpace;
        theta = THETAS[rnd.nextInt(THETAS.length)];
        abortPercent = ABORT_PERCENTS[rnd.nextInt(ABORT_PERCENTS.length)];
        disorder = rnd.nextInt(3);
        batches = 1 + rnd.nextInt(4);
        maxTransactions = rnd.nextInt(3) == 0 ? maxTransactionsCap : Math.min(maxTransactionsCap, 1500);
        for (int t = 0; t < tables; t++)
        {
            catalog.add("vnf", new TableSpec("t" + t, TableScope.CROSS_FLOW, KeyKind.INDEX,
                INITIAL_VALUES[rnd.nextInt(INITIAL_VALUES.length)], "random table"));
        }
        additive = new Random(seed ^ 0xADDL).nextBoolean()
            ? catalog.add("vnf", new TableSpec("sums", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "additive table")) : -1;
        forgotten = fireAndForget
            ? catalog.add("vnf", new TableSpec("forgotten", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "fire-and-forget table")) : -1;
        stale = staleReads
            ? catalog.add("vnf", new TableSpec("loads", TableScope.CROSS_FLOW, KeyKind.INDEX, 0L, "stale-reads table")) : -1;
        zipf = theta > 0 && keySpace > 1 ? new ZipfDistribution(keySpace, theta) : null;
    }

    long key(final Random rnd)
    {
        final int rank = zipf == null ? rnd.nextInt(keySpace) : zipf.rank(rnd.nextDouble());
        return rank * 0x9E3779B97F4A7C15L;
    }

    /** Seeds committed state identically in any store: a few keys per table. */
    void prefill(final StateStore store)
    {
        final Random rnd = new Random(seed ^ 0x5EEDL);
        for (int t = 0; t < tables; t++)
        {
            final int n = Math.min(keySpace, 50);
            for (int i = 0; i < n; i++)
            {
                store.put(t, key(rnd), rnd.nextInt(20) - 2);
            }
        }
        if (additive >= 0)
        {
            store.put(additive, 1L, 100L);
        }
        if (forgotten >= 0)
        {
            store.put(forgotten, 2L, 5L);
        }
        if (stale >= 0)
        {
            store.put(stale, 1L, 7L);
        }
    }

    /** @return the description printed with every failure. */
    String describe()
    {
        return "seed=" + seed + " tables=" + tables + " keySpace=" + keySpace + " theta=" + theta +
            " abortPercent=" + abortPercent + " disorder=" + disorder + " batches=" + batches +
            " maxTransactions=" + maxTransactions + " additive=" + (additive >= 0) + " fireAndForget=" + (forgotten >= 0) + " staleReads=" + (stale >= 0);
    }

    /** Writes batch {@code batch} into {@code log} (cleared first); identical for identical arguments. */
    void fill(final TransactionLog log, final int batch)
    {
        log.clear();
        final Random rnd = new Random(mix(seed * 1_000_003L + batch));
        final int size = (int)Math.max(1, Math.round(Math.exp(rnd.nextDouble() * Math.log(maxTransactions))));
        final long[] ts = new long[size];
        final long[] seq = new long[size];
        final long base = (long)batch * 1_000_000_000L;
        for (int i = 0; i < size; i++)
        {
            seq[i] = (long)batch * 100_000L + i;
            // coarse clock: about one packet in three shares its timestamp with a neighbour
            ts[i] = base + (i * 2L) / 3L * 10L;
        }
        final int[] order = new int[size];
        for (int i = 0; i < size; i++)
        {
            order[i] = i;
        }
        if (disorder == 1)
        {
            for (int i = 0; i < size; i++)
            {
                final int j = Math.min(size - 1, i + rnd.nextInt(8));
                final int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
        }
        else if (disorder == 2)
        {
            for (int i = size - 1; i > 0; i--)
            {
                final int j = rnd.nextInt(i + 1);
                final int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
        }
        for (int i = 0; i < size; i++)
        {
            final int a = order[i];
            log.begin(ts[a], seq[a], null);
            final int ops = rnd.nextInt(40) == 0 ? 0 : 1 + rnd.nextInt(5);
            for (int o = 0; o < ops; o++)
            {
                addOperation(log, rnd, o);
            }
            log.end();
        }
    }

    private void addOperation(final TransactionLog log, final Random rnd, final int index)
    {
        final int table = rnd.nextInt(tables);
        final int kind = rnd.nextInt(100);
        final int abort = abortPercent == 0 ? 0 : rnd.nextInt(abortPercent + 1);
        final int ref = index > 0 && rnd.nextInt(3) == 0 ? rnd.nextInt(index) : -1;
        if (stale >= 0 && rnd.nextInt(4) == 0)
        {
            final long operand = operand(rnd.nextInt(50), abort, ref);
            final int what = rnd.nextInt(3);
            if (what == 0)
            {
                log.staleRead(stale, rnd.nextInt(4));
            }
            else if (what == 1)
            {
                log.add(stale, rnd.nextInt(4), DELTA, operand);
            }
            else
            {
                log.staleChoose(stale, rnd.nextBoolean() ? LEAST_LOADED : HASHED, DELTA, operand);
                final int first = rnd.nextInt(4);
                for (int c = 0, n = 2 + rnd.nextInt(3); c < n; c++)
                {
                    log.candidate((first + c) & 3);
                }
            }
        }
        else if (forgotten >= 0 && rnd.nextInt(4) == 0)
        {
            log.defer(forgotten, rnd.nextInt(3), FORGOTTEN, operand(rnd.nextInt(50), abort, ref));
        }
        else if (additive >= 0 && rnd.nextInt(5) == 0)
        {
            if (rnd.nextInt(4) == 0)
            {
                log.add(additive, EXTRA_ADDITIVE_KEY, SWING, operand(rnd.nextInt(50), abort, ref));
            }
            else
            {
                log.add(additive, rnd.nextInt(3), DELTA, operand(rnd.nextInt(50), abort, ref));
            }
        }
        else if (kind < 20)
        {
            log.read(table, key(rnd));
        }
        else if (kind < 35)
        {
            log.write(table, key(rnd), rnd.nextInt(6) - 2);
        }
        else if (kind < 80)
        {
            log.readModify(table, key(rnd), rnd.nextBoolean() ? SMALL : WIDE, operand(rnd.nextInt(100), abort, ref));
            final int params = rnd.nextInt(4);
            for (int p = 0; p < params; p++)
            {
                log.param(rnd.nextInt(tables), key(rnd));
            }
        }
        else
        {
            log.choose(table, rnd.nextBoolean() ? LEAST_LOADED : HASHED, PICKED, operand(rnd.nextInt(10), abort, ref));
            final int candidates = 2 + rnd.nextInt(5);
            final boolean allowRepeats = rnd.nextInt(10) == 0;
            final long[] chosen = new long[candidates];
            for (int c = 0; c < candidates; c++)
            {
                long k = key(rnd);
                for (int tries = 0; !allowRepeats && tries < 20 && contains(chosen, c, k); tries++)
                {
                    k = key(rnd);
                }
                chosen[c] = k;
                log.candidate(k);
            }
        }
    }

    private static boolean contains(final long[] keys, final int n, final long k)
    {
        for (int i = 0; i < n; i++)
        {
            if (keys[i] == k)
            {
                return true;
            }
        }
        return false;
    }
}
