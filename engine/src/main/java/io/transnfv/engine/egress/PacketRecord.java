package io.transnfv.engine.egress;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.instance.ActionRecorder;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.FiveTupleFormat;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.Arrays;

/**
 * What the chain did with one packet: the VNFs it went through, its verdict, the tags,
 * alerts and aborts along the way. Chain output equivalence compares these records, in
 * the text form of {@link #format}, packet by packet. Reused per packet by the thread that
 * finishes the packet.
 *
 * <pre>
 *  sequence timestamp verdict path tuple [tags] [alerts] [aborts]
 *  42 1700000000000123456 FORWARD nat>lb>td tcp 203.0.113.1:1025>192.168.0.4:80 lb.server=3
 *  43 1700000000000124000 DROP nat:pool-exhausted nat tcp 10.0.0.5:3333>8.8.8.8:53 aborted=nat:1
 *  44 1700000000000125000 DROP ingress:truncated-l4 - -
 *  45 1700000000000126000 DROP ingress:fragment-timeout - udp 10.0.0.9:->8.8.8.8:-
 * </pre>
 */
public final class PacketRecord
{
    /** {@link #dropInstance()} when the packet was dropped before the first VNF. */
    public static final int INGRESS = -1;
    /**
     * Ingress drop reason of a fragment held for its datagram's first fragment until the
     * datagram timed out (or the input ended); reasons below it are malformed reasons.
     */
    public static final int FRAGMENT_TIMEOUT = PacketFlyweight.MALFORMED_REASON_COUNT;
    /** Ingress drop reason of a fragment that came before its first with every holding place taken. */
    public static final int FRAGMENT_OVERFLOW = FRAGMENT_TIMEOUT + 1;
    /** Number of ingress drop reason codes: the malformed reasons and the two fragment reasons. */
    public static final int INGRESS_REASON_COUNT = FRAGMENT_OVERFLOW + 1;

    private long sequence;
    private long timestampNs;
    private int pathLength;
    private int[] path = new int[8];
    private boolean dropped;
    private boolean faulted;
    private int dropInstance;
    private int dropReason;
    private int tagCount;
    private int[] tagInstance = new int[4];
    private int[] tagId = new int[4];
    private long[] tagValue = new long[4];
    private int alertCount;
    private int[] alertInstance = new int[4];
    private int[] alertType = new int[4];
    private long[] alertSubject = new long[4];
    private int abortCount;
    private int[] abortInstance = new int[4];
    private int[] abortReason = new int[4];

    /** Starts a new packet's record. */
    public void reset(final long sequence, final long timestampNs)
    {
        this.sequence = sequence;
        this.timestampNs = timestampNs;
        pathLength = 0;
        dropped = false;
        faulted = false;
        dropInstance = INGRESS;
        dropReason = 0;
        tagCount = 0;
        alertCount = 0;
        abortCount = 0;
    }

    /**
     * Records that VNF {@code instance}'s code threw on the packet: it is dropped there, for the
     * instance's {@code vnf-error} reason; what that VNF's post-processing had decided is not kept.
     */
    public void fault(final int instance, final int vnfErrorReason)
    {
        if (pathLength == path.length)
        {
            path = Arrays.copyOf(path, pathLength * 2);
        }
        path[pathLength++] = instance;
        dropped = true;
        faulted = true;
        dropInstance = instance;
        dropReason = vnfErrorReason;
    }

    /**
     * The packet's transaction at {@code instance} would have created an entry in a table closed
     * to new ones ({@link io.transnfv.tpg.txn.TransactionView#STATE_FULL}): it is dropped with
     * the instance's {@code state-full} reason. Not a fault: the error bound does not count it.
     */
    public void stateFull(final int instance, final int stateFullReason)
    {
        fault(instance, stateFullReason);
        faulted = false;
    }

    /** @return true if a VNF's code threw on the packet (it is then dropped). */
    public boolean faulted()
    {
        return faulted;
    }

    /**
     * Records that the packet was dropped at ingress.
     *
     * @param reason a malformed reason, {@link #FRAGMENT_TIMEOUT} or {@link #FRAGMENT_OVERFLOW}.
     */
    public void dropAtIngress(final int reason)
    {
        dropped = true;
        dropInstance = INGRESS;
        dropReason = reason;
    }

    /**
     * @param reason an ingress drop reason code.
     * @return its name: a malformed reason's, {@code fragment-timeout} or {@code fragment-overflow}.
     */
    public static String ingressReasonName(final int reason)
    {
        if (reason == FRAGMENT_TIMEOUT)
        {
            return "fragment-timeout";
        }
        if (reason == FRAGMENT_OVERFLOW)
        {
            return "fragment-overflow";
        }
        return PacketFlyweight.malformedReasonName(reason);
    }

    /**
     * Records one VNF's outcome for the packet.
     *
     * @param instance the VNF's index in the chain.
     * @param result   its transaction's outcome.
     * @param actions  what its post-processing decided.
     */
    public void visit(final int instance, final TransactionView result, final ActionRecorder actions)
    {
        if (pathLength == path.length)
        {
            path = Arrays.copyOf(path, pathLength * 2);
        }
        path[pathLength++] = instance;
        if (result.aborted())
        {
            if (abortCount == abortInstance.length)
            {
                abortInstance = Arrays.copyOf(abortInstance, abortCount * 2);
                abortReason = Arrays.copyOf(abortReason, abortCount * 2);
            }
            abortInstance[abortCount] = instance;
            abortReason[abortCount] = result.abortReason();
            abortCount++;
        }
        for (int i = 0; i < actions.tagCount(); i++)
        {
            if (tagCount == tagId.length)
            {
                tagInstance = Arrays.copyOf(tagInstance, tagCount * 2);
                tagId = Arrays.copyOf(tagId, tagCount * 2);
                tagValue = Arrays.copyOf(tagValue, tagCount * 2);
            }
            tagInstance[tagCount] = instance;
            tagId[tagCount] = actions.tag(i);
            tagValue[tagCount] = actions.tagValue(i);
            tagCount++;
        }
        for (int i = 0; i < actions.alertCount(); i++)
        {
            if (alertCount == alertType.length)
            {
                alertInstance = Arrays.copyOf(alertInstance, alertCount * 2);
                alertType = Arrays.copyOf(alertType, alertCount * 2);
                alertSubject = Arrays.copyOf(alertSubject, alertCount * 2);
            }
            alertInstance[alertCount] = instance;
            alertType[alertCount] = actions.alertType(i);
            alertSubject[alertCount] = actions.alertSubject(i);
            alertCount++;
        }
        if (actions.dropped())
        {
            dropped = true;
            dropInstance = instance;
            dropReason = actions.dropReason();
        }
    }

    /** @return the packet's arrival index. */
    public long sequence()
    {
        return sequence;
    }

    /** @return the packet's time. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @return true if the packet was dropped. */
    public boolean dropped()
    {
        return dropped;
    }

    /** @return the VNF that dropped it, or {@link #INGRESS}. */
    public int dropInstance()
    {
        return dropInstance;
    }

    /** @return the drop reason id (of the dropping VNF, or an ingress reason: see {@link #ingressReasonName}). */
    public int dropReason()
    {
        return dropReason;
    }

    /** @return the number of VNFs the packet went through. */
    public int pathLength()
    {
        return pathLength;
    }

    /** @return the {@code i}-th VNF on the packet's path. */
    public int path(final int i)
    {
        return path[i];
    }

    /** @return the number of tags VNFs set on the packet. */
    public int tagCount()
    {
        return tagCount;
    }

    /** @return the VNF that set tag {@code i}. */
    public int tagInstance(final int i)
    {
        return tagInstance[i];
    }

    /** @return tag {@code i}'s id (of its VNF). */
    public int tagId(final int i)
    {
        return tagId[i];
    }

    /** @return tag {@code i}'s value. */
    public long tagValue(final int i)
    {
        return tagValue[i];
    }

    /** @return the number of alerts raised for the packet. */
    public int alertCount()
    {
        return alertCount;
    }

    /** @return the VNF that raised alert {@code i}. */
    public int alertInstance(final int i)
    {
        return alertInstance[i];
    }

    /** @return alert {@code i}'s type id (of its VNF). */
    public int alertType(final int i)
    {
        return alertType[i];
    }

    /** @return alert {@code i}'s subject. */
    public long alertSubject(final int i)
    {
        return alertSubject[i];
    }

    /** @return the number of aborted transactions of the packet. */
    public int abortCount()
    {
        return abortCount;
    }

    /** @return the VNF whose transaction {@code i} aborted. */
    public int abortInstance(final int i)
    {
        return abortInstance[i];
    }

    /** @return the reason of abort {@code i}. */
    public int abortReason(final int i)
    {
        return abortReason[i];
    }

    /**
     * Appends the record's stable text form (no newline).
     *
     * @param out     where to write.
     * @param runtime names the VNFs, reasons, tags and alerts.
     * @param packet  the packet as it leaves the chain (rewrites applied).
     * @return {@code out}.
     */
    public StringBuilder format(final StringBuilder out, final ChainRuntime runtime, final PacketFlyweight packet)
    {
        out.append(sequence).append(' ').append(timestampNs).append(' ');
        if (dropped)
        {
            out.append("DROP ");
            if (dropInstance == INGRESS)
            {
                out.append("ingress:").append(ingressReasonName(dropReason));
            }
            else
            {
                final VnfInstance vnf = runtime.instance(dropInstance);
                out.append(vnf.name()).append(':').append(vnf.dropReasons().get(dropReason));
            }
        }
        else
        {
            out.append("FORWARD");
        }
        out.append(' ');
        if (pathLength == 0)
        {
            out.append('-');
        }
        for (int i = 0; i < pathLength; i++)
        {
            if (i > 0)
            {
                out.append('>');
            }
            out.append(runtime.instance(path[i]).name());
        }
        out.append(' ');
        if (packet != null && packet.isValid() && packet.isIp())
        {
            FiveTupleFormat.appendTo(out, packet);
        }
        else
        {
            out.append('-');
        }
        for (int i = 0; i < tagCount; i++)
        {
            final VnfInstance vnf = runtime.instance(tagInstance[i]);
            out.append(' ').append(vnf.name()).append('.').append(vnf.tags().get(tagId[i])).append('=').append(tagValue[i]);
        }
        for (int i = 0; i < alertCount; i++)
        {
            final VnfInstance vnf = runtime.instance(alertInstance[i]);
            out.append(" alert=").append(vnf.name()).append(':').append(vnf.alertTypes().get(alertType[i]))
                .append(':').append(Long.toHexString(alertSubject[i]));
        }
        for (int i = 0; i < abortCount; i++)
        {
            out.append(" aborted=").append(runtime.instance(abortInstance[i]).name()).append(':').append(abortReason[i]);
        }
        return out;
    }
}
