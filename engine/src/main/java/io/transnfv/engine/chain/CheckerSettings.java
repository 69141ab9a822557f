package io.transnfv.engine.chain;

import java.util.List;
import java.util.Locale;

/**
 * Which of the VNFs' state checkers run, and when (chain YAML {@code settings: checkers:}). The
 * enabled checkers always run on the state at the end of a run; during it, they run at
 * punctuations placed by packet time ({@code every: 1s}) or by packet count ({@code every: N}:
 * every N batches of the configured size, i.e. every N × {@code punctuation.transactions}
 * packets). Those positions are the same on every executor: the engine closes a batch there,
 * the serial oracle checks between the same two packets ({@code docs/design/checkers.md}).
 *
 * @param enabled      the checkers that run, each {@code <vnf>.<checker>} or {@code <vnf>} (every
 *                     checker of that VNF); null for every declared checker; empty for none.
 * @param everyNs      the packet-time period of the checks during the run, 0 for none.
 * @param everyBatches checks every this many batches of the configured size, 0 for none.
 */
public record CheckerSettings(List<String> enabled, long everyNs, long everyBatches)
{
    private static final CheckerSettings DEFAULTS = new CheckerSettings(null, 0, 0);

    /** Checks the values and freezes the list. */
    public CheckerSettings
    {
        enabled = enabled == null ? null : List.copyOf(enabled);
        if (everyNs < 0 || everyBatches < 0 || (everyNs > 0 && everyBatches > 0))
        {
            throw new IllegalArgumentException("checker period: one of a packet time or a batch count, >= 0: " + everyNs + " ns, "
                + everyBatches + " batches");
        }
    }

    /** @return every declared checker, on the final state only: the default. */
    public static CheckerSettings defaults()
    {
        return DEFAULTS;
    }

    /** @return a copy that runs every declared checker, at the same times. */
    public CheckerSettings all()
    {
        return new CheckerSettings(null, everyNs, everyBatches);
    }

    /** @return true if checker {@code checker} of VNF {@code vnf} runs. */
    public boolean selects(final String vnf, final String checker)
    {
        return enabled == null || enabled.contains(vnf) || enabled.contains(vnf + "." + checker);
    }

    /** @return true if the checkers also run during the run, not only at its end. */
    public boolean periodic()
    {
        return everyNs > 0 || everyBatches > 0;
    }

    /** @return packets between two checks by count (every {@code everyBatches} batches of {@code batchTransactions}), 0 for none. */
    public long everyPackets(final int batchTransactions)
    {
        return everyBatches == 0 ? 0 : Math.multiplyExact(everyBatches, (long)batchTransactions);
    }

    /** @return when the checks run, for the run report, e.g. {@code every 1000 ms of packet time and at the end}. */
    public String describe(final int batchTransactions)
    {
        if (everyNs > 0)
        {
            return everyNs % 1_000_000L == 0
                ? String.format(Locale.ROOT, "every %d ms of packet time and at the end", everyNs / 1_000_000L)
                : String.format(Locale.ROOT, "every %d ns of packet time and at the end", everyNs);
        }
        if (everyBatches > 0)
        {
            return String.format(Locale.ROOT, "every %d batches (%d packets) and at the end", everyBatches, everyPackets(batchTransactions));
        }
        return "at the end";
    }
}
