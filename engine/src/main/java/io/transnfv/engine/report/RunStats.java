package io.transnfv.engine.report;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.tpg.collections.Long2LongHashMap;
import io.transnfv.vnf.packet.PacketFlyweight;
import org.HdrHistogram.Histogram;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one run, indexed by VNF and by id so that counting allocates nothing (alert
 * subjects, counted per distinct subject, allocate only when a table of them grows). One
 * writer thread (the one that finishes packets); {@link #packetsFinished()} may be read by
 * any thread for progress.
 */
public final class RunStats
{
    /** Most distinct subjects counted per VNF and alert type; alerts about more are counted, not listed. */
    public static final int MAX_ALERT_SUBJECTS = 1024;

    private static final long MAX_LATENCY_NS = 3_600_000_000_000L;

    private final ChainRuntime runtime;
    private final AtomicLong packetsFinished = new AtomicLong();
    private long forwarded;
    private long forwardedBytes;
    private final long[] malformed = new long[PacketRecord.INGRESS_REASON_COUNT];
    private final long[] visits;
    private final long[][] drops;
    private final long[][] alerts;
    private final Long2LongHashMap[][] alertSubjects;
    private final boolean[][] alertSubjectsTruncated;
    private final long[] aborts;
    private final Histogram latencyNs = new Histogram(MAX_LATENCY_NS, 3);
    private long latencyOverflows;
    /** In a chain of tenants, each tenant's latencies, recorded with the run's; else empty. */
    private final Histogram[] tenantLatencyNs;

    /** @param runtime the chain being run, whose VNFs' ids index the counters. */
    public RunStats(final ChainRuntime runtime)
    {
        this.runtime = runtime;
        final int n = runtime.size();
        visits = new long[n];
        drops = new long[n][];
        alerts = new long[n][];
        alertSubjects = new Long2LongHashMap[n][];
        alertSubjectsTruncated = new boolean[n][];
        aborts = new long[n];
        for (int i = 0; i < n; i++)
        {
            drops[i] = new long[runtime.instance(i).dropReasons().size()];
            final int alertTypes = Math.max(1, runtime.instance(i).alertTypes().size());
            alerts[i] = new long[alertTypes];
            alertSubjects[i] = new Long2LongHashMap[alertTypes];
            alertSubjectsTruncated[i] = new boolean[alertTypes];
            for (int type = 0; type < alertTypes; type++)
            {
                alertSubjects[i][type] = new Long2LongHashMap(4, 0);
            }
        }
        tenantLatencyNs = new Histogram[runtime.tenants().size()];
        for (int t = 0; t < tenantLatencyNs.length; t++)
        {
            tenantLatencyNs[t] = new Histogram(MAX_LATENCY_NS, 3);
        }
    }

    /**
     * Counts a packet the chain has finished with: visits, alerts, aborts, drops, forwarded
     * packets and bytes, and the finished count (see {@link #addFinished}).
     */
    public void onFinished(final PacketRecord record, final int frameLength)
    {
        count(record, frameLength);
        packetsFinished.lazySet(packetsFinished.get() + 1);
    }

    /** Counts what {@code record} did, without the finished count (a worker's share of the counts). */
    public void count(final PacketRecord record, final int frameLength)
    {
        for (int i = 0; i < record.pathLength(); i++)
        {
            visits[record.path(i)]++;
        }
        for (int i = 0; i < record.alertCount(); i++)
        {
            alerts[record.alertInstance(i)][record.alertType(i)]++;
            countAlertSubject(record.alertInstance(i), record.alertType(i), record.alertSubject(i));
        }
        for (int i = 0; i < record.abortCount(); i++)
        {
            aborts[record.abortInstance(i)]++;
        }
        if (record.dropped())
        {
            if (record.dropInstance() == PacketRecord.INGRESS)
            {
                malformed[record.dropReason()]++;
            }
            else
            {
                drops[record.dropInstance()][record.dropReason()]++;
            }
        }
        else
        {
            forwarded++;
            forwardedBytes += frameLength;
        }
    }

    /**
     * Adds every counter, alert subject and latency of {@code other} (another worker's share)
     * into this one, after the worker that wrote {@code other} is done. Past the cap of listed
     * subjects, which ones are listed depends on how the packets were shared out.
     */
    public void add(final RunStats other)
    {
        forwarded += other.forwarded;
        forwardedBytes += other.forwardedBytes;
        for (int i = 0; i < malformed.length; i++)
        {
            malformed[i] += other.malformed[i];
        }
        for (int v = 0; v < visits.length; v++)
        {
            visits[v] += other.visits[v];
            aborts[v] += other.aborts[v];
            for (int r = 0; r < drops[v].length; r++)
            {
                drops[v][r] += other.drops[v][r];
            }
            for (int a = 0; a < alerts[v].length; a++)
            {
                alerts[v][a] += other.alerts[v][a];
            }
            for (int type = 0; type < alertSubjects[v].length; type++)
            {
                final int instance = v;
                final int alertType = type;
                other.alertSubjects[v][type].forEach((subject, count) -> addAlertSubject(instance, alertType, subject, count));
                alertSubjectsTruncated[v][type] |= other.alertSubjectsTruncated[v][type];
            }
        }
        latencyNs.add(other.latencyNs);
        latencyOverflows += other.latencyOverflows;
        for (int t = 0; t < tenantLatencyNs.length; t++)
        {
            tenantLatencyNs[t].add(other.tenantLatencyNs[t]);
        }
    }

    /**
     * Adds another run's latencies (a parallel subtask's, say) to these.
     *
     * @param histogram latencies in nanoseconds, recorded as {@link #recordLatencyNs} does.
     * @param overflows latencies beyond the histogram's range.
     */
    public void addLatencies(final Histogram histogram, final long overflows)
    {
        latencyNs.add(histogram);
        latencyOverflows += overflows;
    }

    /**
     * @return a copy of these counters and latencies with {@code shares} (workers' counters not yet
     *         {@link #add added}) counted in: what a {@link RunSnapshot} holds, written by nobody
     *         once returned. Call on the thread that records latencies here; the shares' counters
     *         are read without synchronisation, each a value its writer held at some moment, so a
     *         copy may be a batch behind. Its finished count is at least its forwarded and dropped
     *         packets. Alert subjects are not copied.
     */
    public RunStats copyWith(final RunStats... shares)
    {
        final RunStats copy = new RunStats(runtime);
        copy.addCounters(counters());
        for (final RunStats share : shares)
        {
            final long[] counted = share.counters();
            // a share counts what its worker did; packets are finished by the egress alone
            counted[0] = 0;
            copy.addCounters(counted);
        }
        copy.latencyNs.add(latencyNs);
        copy.latencyOverflows = latencyOverflows;
        for (int t = 0; t < tenantLatencyNs.length; t++)
        {
            copy.tenantLatencyNs[t].add(tenantLatencyNs[t]);
        }
        // a worker counts a packet when the chain is done with it, the egress up to a batch later: a copy's
        // finished count is never below what its forwarded and dropped counts account for
        final long accounted = copy.forwarded + copy.droppedTotal();
        if (accounted > copy.packetsFinished.get())
        {
            copy.packetsFinished.set(accounted);
        }
        return copy;
    }

    /**
     * @return every counter (finished, forwarded packets and bytes, malformed by reason, and per
     *         VNF visits, aborts, drops by reason, alerts by type) in one fixed order: what a
     *         checkpoint keeps. Alert subjects and latencies are not among them.
     */
    public long[] counters()
    {
        final long[] out = new long[counterCount()];
        int i = 0;
        out[i++] = packetsFinished.get();
        out[i++] = forwarded;
        out[i++] = forwardedBytes;
        for (final long m : malformed)
        {
            out[i++] = m;
        }
        for (int v = 0; v < visits.length; v++)
        {
            out[i++] = visits[v];
            out[i++] = aborts[v];
            for (final long d : drops[v])
            {
                out[i++] = d;
            }
            for (final long a : alerts[v])
            {
                out[i++] = a;
            }
        }
        return out;
    }

    /**
     * Adds counters in the order of {@link #counters()} (e.g. those of a checkpoint) to these.
     *
     * @throws IllegalArgumentException if their number does not fit this chain.
     */
    public void addCounters(final long[] in)
    {
        if (in.length != counterCount())
        {
            throw new IllegalArgumentException(in.length + " counters given, this chain has " + counterCount());
        }
        int i = 0;
        packetsFinished.lazySet(packetsFinished.get() + in[i++]);
        forwarded += in[i++];
        forwardedBytes += in[i++];
        for (int r = 0; r < malformed.length; r++)
        {
            malformed[r] += in[i++];
        }
        for (int v = 0; v < visits.length; v++)
        {
            visits[v] += in[i++];
            aborts[v] += in[i++];
            for (int r = 0; r < drops[v].length; r++)
            {
                drops[v][r] += in[i++];
            }
            for (int a = 0; a < alerts[v].length; a++)
            {
                alerts[v][a] += in[i++];
            }
        }
    }

    private int counterCount()
    {
        int n = 3 + malformed.length;
        for (int v = 0; v < visits.length; v++)
        {
            n += 2 + drops[v].length + alerts[v].length;
        }
        return n;
    }

    /**
     * Counts {@code packets} packets as finished without touching the other counters: the
     * egress of an engine whose workers {@link #count} the rest.
     */
    public void addFinished(final long packets)
    {
        packetsFinished.lazySet(packetsFinished.get() + packets);
    }

    private void countAlertSubject(final int instance, final int type, final long subject)
    {
        addAlertSubject(instance, type, subject, 1);
    }

    private void addAlertSubject(final int instance, final int type, final long subject, final long count)
    {
        final Long2LongHashMap subjects = alertSubjects[instance][type];
        final long alertsSoFar = subjects.get(subject);
        if (alertsSoFar != 0 || subjects.size() < MAX_ALERT_SUBJECTS)
        {
            subjects.put(subject, alertsSoFar + count);
        }
        else
        {
            alertSubjectsTruncated[instance][type] = true;
        }
    }

    /** Records one packet's latency from ingress to the end of the chain. */
    public void recordLatencyNs(final long latencyNs)
    {
        if (latencyNs >= 0 && latencyNs <= MAX_LATENCY_NS)
        {
            latencyNs().recordValue(latencyNs);
        }
        else
        {
            latencyOverflows++;
        }
    }

    /**
     * Records one packet's latency from ingress to the end of the chain, and in a chain of tenants
     * also as its tenant's: the tenant whose VNF the packet visited after the classifier ({@code record}'s
     * path); a packet the classifier dropped counts for the run alone.
     */
    public void recordLatencyNs(final long latencyNs, final PacketRecord record)
    {
        recordLatencyNs(latencyNs);
        if (tenantLatencyNs.length > 0 && record.pathLength() > 1 && latencyNs >= 0 && latencyNs <= MAX_LATENCY_NS)
        {
            final int tenant = runtime.tenantOfInstance(record.path(1));
            if (tenant >= 0)
            {
                tenantLatencyNs[tenant].recordValue(latencyNs);
            }
        }
    }

    /**
     * @return tenant {@code tenant}'s latency histogram in nanoseconds (the tenants in the order the
     *         chain's classifier lists them), or null in a chain without tenants.
     */
    public Histogram tenantLatencyNs(final int tenant)
    {
        return tenant < tenantLatencyNs.length ? tenantLatencyNs[tenant] : null;
    }

    /** @return packets finished so far; safe from any thread. */
    public long packetsFinished()
    {
        return packetsFinished.get();
    }

    /** @return packets forwarded out of the chain. */
    public long forwarded()
    {
        return forwarded;
    }

    /** @return bytes forwarded out of the chain. */
    public long forwardedBytes()
    {
        return forwardedBytes;
    }

    /** @return packets dropped anywhere: at ingress and by every VNF, for every reason. */
    public long droppedTotal()
    {
        long n = 0;
        for (int reason = 1; reason < malformed.length; reason++)
        {
            n += malformed[reason];
        }
        for (final long[] byReason : drops)
        {
            for (int reason = 1; reason < byReason.length; reason++)
            {
                n += byReason[reason];
            }
        }
        return n;
    }

    /** @return alerts raised by every VNF, of every type. */
    public long alertsTotal()
    {
        long n = 0;
        for (final long[] byType : alerts)
        {
            for (final long a : byType)
            {
                n += a;
            }
        }
        return n;
    }

    /** @return packets dropped at ingress, by ingress reason code ({@link PacketRecord#ingressReasonName}). */
    public long malformed(final int reason)
    {
        return malformed[reason];
    }

    /** @return packets that VNF {@code instance} handled. */
    public long visits(final int instance)
    {
        return visits[instance];
    }

    /** @return packets VNF {@code instance} dropped for {@code reason}. */
    public long drops(final int instance, final int reason)
    {
        return drops[instance][reason];
    }

    /** @return alerts of {@code type} that VNF {@code instance} raised. */
    public long alerts(final int instance, final int type)
    {
        return type < alerts[instance].length ? alerts[instance][type] : 0;
    }

    /**
     * Tells {@code consumer} each subject VNF {@code instance} raised alerts of {@code type}
     * about, with how many; at most {@link #MAX_ALERT_SUBJECTS}, in no particular order.
     */
    public void forEachAlertSubject(final int instance, final int type, final Long2LongHashMap.EntryConsumer consumer)
    {
        if (type < alertSubjects[instance].length)
        {
            alertSubjects[instance][type].forEach(consumer);
        }
    }

    /** @return true if alerts of {@code type} by VNF {@code instance} had more subjects than are counted. */
    public boolean alertSubjectsTruncated(final int instance, final int type)
    {
        return type < alertSubjectsTruncated[instance].length && alertSubjectsTruncated[instance][type];
    }

    /** @return aborted transactions of VNF {@code instance}. */
    public long aborts(final int instance)
    {
        return aborts[instance];
    }

    /** @return the latency histogram in nanoseconds. */
    public Histogram latencyNs()
    {
        return latencyNs;
    }

    /** @return latencies that fell outside the histogram's range. */
    public long latencyOverflows()
    {
        return latencyOverflows;
    }

    /** @return the chain the counters belong to. */
    public ChainRuntime runtime()
    {
        return runtime;
    }
}
