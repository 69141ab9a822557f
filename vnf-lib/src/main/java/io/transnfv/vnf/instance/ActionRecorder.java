package io.transnfv.vnf.instance;

import io.transnfv.vnf.api.PacketActions;

import java.util.Arrays;

/**
 * Records what one VNF's post-processing decided for one packet. Reused: {@link #reset()}
 * before each packet; grows only while the first packets warm it up. One per thread.
 */
public final class ActionRecorder implements PacketActions
{
    /** {@link #dropReason()} when the packet was not dropped. */
    public static final int NOT_DROPPED = 0;

    private int output;
    private int dropReason;
    private int alertCount;
    private int[] alertTypes = new int[4];
    private long[] alertSubjects = new long[4];
    private int tagCount;
    private int[] tags = new int[4];
    private long[] tagValues = new long[4];

    /** Forgets the previous packet's decisions: output 0, not dropped, no alerts or tags. */
    public void reset()
    {
        output = 0;
        dropReason = NOT_DROPPED;
        alertCount = 0;
        tagCount = 0;
    }

    @Override
    public void forward(final int output)
    {
        if (output < 0)
        {
            throw new IllegalArgumentException("output " + output);
        }
        this.output = output;
        this.dropReason = NOT_DROPPED;
    }

    @Override
    public void drop(final int reason)
    {
        if (reason <= 0)
        {
            throw new IllegalArgumentException("drop reason must be an id from VnfSetup.dropReason: " + reason);
        }
        this.dropReason = reason;
    }

    @Override
    public void alert(final int alertType, final long subject)
    {
        if (alertCount == alertTypes.length)
        {
            alertTypes = Arrays.copyOf(alertTypes, alertCount * 2);
            alertSubjects = Arrays.copyOf(alertSubjects, alertCount * 2);
        }
        alertTypes[alertCount] = alertType;
        alertSubjects[alertCount] = subject;
        alertCount++;
    }

    @Override
    public void tag(final int tag, final long value)
    {
        for (int i = 0; i < tagCount; i++)
        {
            if (tags[i] == tag)
            {
                tagValues[i] = value;
                return;
            }
        }
        if (tagCount == tags.length)
        {
            tags = Arrays.copyOf(tags, tagCount * 2);
            tagValues = Arrays.copyOf(tagValues, tagCount * 2);
        }
        tags[tagCount] = tag;
        tagValues[tagCount] = value;
        tagCount++;
    }

    /** @return the output forwarded to (meaningful when not dropped). */
    public int output()
    {
        return output;
    }

    /** @return the drop reason id, or {@link #NOT_DROPPED}. */
    public int dropReason()
    {
        return dropReason;
    }

    /** @return true if the packet was dropped. */
    public boolean dropped()
    {
        return dropReason != NOT_DROPPED;
    }

    /** @return the number of alerts raised. */
    public int alertCount()
    {
        return alertCount;
    }

    /** @return alert {@code i}'s type id. */
    public int alertType(final int i)
    {
        return alertTypes[i];
    }

    /** @return alert {@code i}'s subject. */
    public long alertSubject(final int i)
    {
        return alertSubjects[i];
    }

    /** @return the number of tags set. */
    public int tagCount()
    {
        return tagCount;
    }

    /** @return tag {@code i}'s id. */
    public int tag(final int i)
    {
        return tags[i];
    }

    /** @return tag {@code i}'s value. */
    public long tagValue(final int i)
    {
        return tagValues[i];
    }
}
