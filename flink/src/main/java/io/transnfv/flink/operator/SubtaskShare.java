package io.transnfv.flink.operator;

import io.transnfv.engine.chain.Partitioning;
import io.transnfv.engine.checkpoint.Checkpoint;
import io.transnfv.engine.checkpoint.CheckpointFile;
import io.transnfv.flink.route.PacketRouter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one subtask put into a snapshot, as one element of the operator's union list state: its
 * engine's checkpoint (every table in full, the counters, the packet time), the routing hash of
 * every entry ({@link EntryOwners}), its position and the output parts it staged. Every subtask
 * of a restored job reads every share, so that a restore at another parallelism can split them
 * by the new routing ({@link #redistribute}):
 *
 * <pre>
 *  shares of the old subtasks 0 .. M-1            new subtask i of N
 *  table entries (key, value, routing hash) ──►    those whose hash maps to i under N
 *  counters (run, VNF)                      ──►    subtask 0: their sum; the others: none
 *  packet time                              ──►    every subtask: the latest (the cut's)
 *  staged output parts                      ──►    subtask 0 commits them all, once
 * </pre>
 *
 * @param subtask     the subtask that wrote it.
 * @param parallelism the job's parallelism then.
 * @param batches     batches it had taken.
 * @param handed      packets it had handed to its engine.
 * @param lastTimeNs  packet time of the latest of them, Long.MIN_VALUE for none.
 * @param checkpoint  its engine's state.
 * @param owners      per table in catalogue order, the routing hash of each entry of that table's
 *                    section in {@code checkpoint} ({@link EntryOwners#UNKNOWN} where none was seen).
 * @param staged      output parts staged and not known to be committed.
 */
record SubtaskShare(int subtask, int parallelism, long batches, long handed, long lastTimeNs, Checkpoint checkpoint,
    long[][] owners, List<String> staged)
{
    /** Copies the list. */
    SubtaskShare
    {
        staged = List.copyOf(staged);
    }

    /** @return the share as bytes, for Flink's list state. */
    byte[] toBytes() throws IOException
    {
        final byte[] engine = CheckpointFile.toBytes(checkpoint);
        long ownerBytes = 0;
        for (final long[] table : owners)
        {
            ownerBytes += 4 + 8L * table.length;
        }
        // sized once: taken at every checkpoint, and the owners are as many as the entries
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream((int)Math.min(Integer.MAX_VALUE - 16, 1024 + engine.length + ownerBytes));
        final DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(subtask);
        out.writeInt(parallelism);
        out.writeLong(batches);
        out.writeLong(handed);
        out.writeLong(lastTimeNs);
        out.writeInt(engine.length);
        out.write(engine);
        out.writeInt(owners.length);
        for (final long[] table : owners)
        {
            out.writeInt(table.length);
            // big-endian, as writeLong would write them one by one
            final ByteBuffer hashes = ByteBuffer.allocate(8 * table.length);
            hashes.asLongBuffer().put(table);
            out.write(hashes.array());
        }
        out.writeInt(staged.size());
        for (final String part : staged)
        {
            out.writeUTF(part);
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** @return the subtask that wrote the share {@code bytes} (read off its header, nothing else parsed). */
    static int subtaskOf(final byte[] bytes)
    {
        return ByteBuffer.wrap(bytes).getInt(0);
    }

    /** @return the parallelism of the job that wrote the share {@code bytes}. */
    static int parallelismOf(final byte[] bytes)
    {
        return ByteBuffer.wrap(bytes).getInt(4);
    }

    /**
     * @param chainId the fingerprint the engine's checkpoint must carry.
     * @throws IOException if the bytes are no share, or the checkpoint is another chain's.
     */
    static SubtaskShare fromBytes(final byte[] bytes, final long chainId) throws IOException
    {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        final int subtask = in.readInt();
        final int parallelism = in.readInt();
        final long batches = in.readLong();
        final long handed = in.readLong();
        final long lastTimeNs = in.readLong();
        final Checkpoint checkpoint = CheckpointFile.fromBytes("flink state of subtask " + subtask, in.readNBytes(in.readInt()),
            chainId);
        final long[][] owners = new long[in.readInt()][];
        for (int t = 0; t < owners.length; t++)
        {
            owners[t] = new long[in.readInt()];
            for (int i = 0; i < owners[t].length; i++)
            {
                owners[t][i] = in.readLong();
            }
        }
        final List<String> staged = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--)
        {
            staged.add(in.readUTF());
        }
        return new SubtaskShare(subtask, parallelism, batches, handed, lastTimeNs, checkpoint, owners, staged);
    }

    /**
     * What new subtask {@code subtask} of {@code parallelism} restores from the shares of a job of
     * another parallelism: the entries whose routing hash maps to it, and, for subtask 0, the
     * counters of them all and the parts they staged.
     *
     * @param shares       every old subtask's share, one each.
     * @param partitioning the chain's.
     * @throws IllegalStateException with a {@code fix:} if the state cannot be split: a table each
     *                               subtask keeps its own copy of, or an entry with no known owner.
     */
    static SubtaskShare redistribute(final List<SubtaskShare> shares, final int subtask, final int parallelism,
        final Partitioning partitioning)
    {
        final int from = shares.get(0).parallelism();
        final boolean allToFirst = parallelism == 1 || partitioning.routing() == Partitioning.Routing.SINGLE;
        if (!allToFirst && !partitioning.perSubtask().isEmpty())
        {
            throw new IllegalStateException("the savepoint was taken at parallelism " + from + " and cannot be split over "
                + parallelism + ": table(s) " + String.join(", ", partitioning.perSubtask()) + " are per-subtask, each subtask's"
                + " copy is its own view and belongs to no routing key; fix: resume at parallelism " + from);
        }
        final Checkpoint first = shares.get(0).checkpoint();
        final int tables = first.tables().size();
        final long[][] keys = new long[tables][];
        final long[][] values = new long[tables][];
        final long[][] hashes = new long[tables][];
        for (int t = 0; t < tables; t++)
        {
            int n = 0;
            for (final SubtaskShare share : shares)
            {
                n += share.checkpoint().tables().get(t).keys().length;
            }
            keys[t] = new long[n];
            values[t] = new long[n];
            hashes[t] = new long[n];
            int kept = 0;
            for (final SubtaskShare share : shares)
            {
                final Checkpoint.Table table = share.checkpoint().tables().get(t);
                for (int i = 0; i < table.keys().length; i++)
                {
                    final long hash = share.owners()[t][i];
                    final int owner;
                    if (allToFirst)
                    {
                        owner = 0;
                    }
                    else if (hash == EntryOwners.UNKNOWN)
                    {
                        throw new IllegalStateException("the savepoint was taken at parallelism " + from + " and cannot be split over "
                            + parallelism + ": entry " + table.keys()[i] + " of table " + table.name() + " was made by no packet"
                            + " routed to its subtask as given (a VNF keys it on a packet an earlier VNF rewrote); fix: resume at"
                            + " parallelism " + from + ", or declare the table 'distribution: single'");
                    }
                    else
                    {
                        owner = PacketRouter.subtaskOf(hash, parallelism);
                    }
                    if (owner == subtask)
                    {
                        keys[t][kept] = table.keys()[i];
                        values[t][kept] = table.values()[i];
                        hashes[t][kept++] = hash;
                    }
                }
            }
            keys[t] = Arrays.copyOf(keys[t], kept);
            values[t] = Arrays.copyOf(values[t], kept);
            hashes[t] = Arrays.copyOf(hashes[t], kept);
        }
        final List<Checkpoint.Table> sections = new ArrayList<>(tables);
        for (int t = 0; t < tables; t++)
        {
            final Checkpoint.Table table = first.tables().get(t);
            sections.add(new Checkpoint.Table(table.name(), table.initialValue(), keys[t], values[t]));
        }
        final long[] counters = new long[first.counters().length];
        long handed = 0;
        long batches = 0;
        long lastTimeNs = Long.MIN_VALUE;
        long packetTimeNs = 0;
        final List<String> staged = new ArrayList<>();
        for (final SubtaskShare share : shares)
        {
            if (subtask == 0)
            {
                // counters add up (a closed table's flag too: non-zero is closed), whichever subtask counted
                for (int c = 0; c < counters.length; c++)
                {
                    counters[c] += share.checkpoint().counters()[c];
                }
                handed += share.handed();
                staged.addAll(share.staged());
            }
            batches = Math.max(batches, share.batches());
            lastTimeNs = Math.max(lastTimeNs, share.lastTimeNs());
            packetTimeNs = Math.max(packetTimeNs, share.checkpoint().packetTimeNs());
        }
        final Checkpoint checkpoint = new Checkpoint(first.id(), true, 0, first.chainId(), handed, packetTimeNs, List.of(), counters,
            sections);
        return new SubtaskShare(subtask, parallelism, batches, handed, lastTimeNs, checkpoint, hashes, staged);
    }
}
