package io.transnfv.vnf.builtin.lb;

import io.transnfv.vnf.distribution.ZipfDistribution;
import io.transnfv.vnf.packet.FlowKeys;

/**
 * The candidate servers of a flow, a deterministic function of its key: all servers in
 * index order when d &gt;= servers, else d distinct servers, candidate i being
 * {@code hash(key, i) mod servers}, moved to the next index (cyclically) while it repeats an
 * earlier candidate — the sampling of the power-of-d-choices workload in the TransNFV paper
 * (d = 5). With a Zipf skew s &gt; 0, {@code hash(key, i)} is mapped through the Zipf(s)
 * distribution over server indices (index 0 most popular), as the paper's workload skews
 * its server keys. Thread-safe and allocation-free after each thread's first call: every
 * thread has its own scratch array.
 */
public final class CandidateSampler
{
    private static final long CANDIDATE_SALT = 0x5851F42D4C957F2DL;

    private final int servers;
    private final int count;
    private final ZipfDistribution zipf;
    private final ThreadLocal<int[]> scratch;

    /**
     * @param servers number of servers, at least 1.
     * @param d       candidates wanted, at least 1; capped at {@code servers}.
     */
    public CandidateSampler(final int servers, final int d)
    {
        this(servers, d, 0.0);
    }

    /**
     * @param servers number of servers, at least 1.
     * @param d       candidates wanted, at least 1; capped at {@code servers}.
     * @param skew    Zipf exponent over server indices, 0 for uniform.
     */
    public CandidateSampler(final int servers, final int d, final double skew)
    {
        if (servers < 1 || d < 1 || !(skew >= 0))
        {
            throw new IllegalArgumentException("servers " + servers + ", d " + d + ", skew " + skew);
        }
        this.servers = servers;
        this.count = Math.min(d, servers);
        this.zipf = skew > 0 && count < servers ? new ZipfDistribution(servers, skew) : null;
        this.scratch = ThreadLocal.withInitial(() -> new int[count]);
    }

    /** @return the number of candidates of every flow. */
    public int count()
    {
        return count;
    }

    /**
     * Writes the candidates of {@code key} into {@code out[0 .. count())}.
     *
     * @param key a flow key.
     * @param out at least {@link #count()} long.
     */
    public void fill(final long key, final int[] out)
    {
        if (count == servers)
        {
            for (int i = 0; i < count; i++)
            {
                out[i] = i;
            }
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final long h = FlowKeys.mix64(key ^ FlowKeys.mix64(CANDIDATE_SALT + i));
            int s = zipf == null ? (int)Math.floorMod(h, (long)servers) : zipfIndex(h);
            while (repeats(out, i, s))
            {
                s = s + 1 == servers ? 0 : s + 1;
            }
            out[i] = s;
        }
    }

    /** @return this thread's scratch array filled with the candidates of {@code key}. */
    public int[] candidates(final long key)
    {
        final int[] out = scratch.get();
        fill(key, out);
        return out;
    }

    /** @return candidate {@code index} of {@code key}. */
    public int candidate(final long key, final int index)
    {
        return candidates(key)[index];
    }

    private int zipfIndex(final long hash)
    {
        return zipf.rank((hash >>> 11) * 0x1.0p-53);
    }

    private static boolean repeats(final int[] out, final int n, final int s)
    {
        for (int j = 0; j < n; j++)
        {
            if (out[j] == s)
            {
                return true;
            }
        }
        return false;
    }
}
