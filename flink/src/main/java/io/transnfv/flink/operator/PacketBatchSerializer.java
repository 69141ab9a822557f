package io.transnfv.flink.operator;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.Arrays;

/**
 * Flink's serializer for a {@link PacketBatch}: four fields and the batch's one block of bytes,
 * whatever the number of packets in it, where a generic (POJO) serializer wrote seven arrays and
 * allocated as many on the way back. Stateless; any thread.
 *
 * <pre>
 *  subtask:int number:long count:int used:int data[used]
 * </pre>
 *
 * Batches only travel between the reader and the engines (they are never kept in Flink's
 * state), so the format may change between versions.
 */
public final class PacketBatchSerializer extends TypeSerializerSingleton<PacketBatch>
{
    /** The one instance. */
    public static final PacketBatchSerializer INSTANCE = new PacketBatchSerializer();

    private static final long serialVersionUID = 1L;

    @Override
    public boolean isImmutableType()
    {
        return false;
    }

    @Override
    public PacketBatch createInstance()
    {
        return new PacketBatch(0, 0, 0);
    }

    @Override
    public PacketBatch copy(final PacketBatch from)
    {
        return new PacketBatch(from.subtask(), from.number(), from.count(), Arrays.copyOf(from.data(), from.usedBytes()),
            from.usedBytes());
    }

    @Override
    public PacketBatch copy(final PacketBatch from, final PacketBatch reuse)
    {
        return copy(from);
    }

    @Override
    public int getLength()
    {
        return -1;
    }

    @Override
    public void serialize(final PacketBatch batch, final DataOutputView target) throws IOException
    {
        target.writeInt(batch.subtask());
        target.writeLong(batch.number());
        target.writeInt(batch.count());
        target.writeInt(batch.usedBytes());
        target.write(batch.data(), 0, batch.usedBytes());
    }

    @Override
    public PacketBatch deserialize(final DataInputView source) throws IOException
    {
        final int subtask = source.readInt();
        final long number = source.readLong();
        final int count = source.readInt();
        final int used = source.readInt();
        final byte[] data = new byte[used];
        source.readFully(data);
        return new PacketBatch(subtask, number, count, data, used);
    }

    @Override
    public PacketBatch deserialize(final PacketBatch reuse, final DataInputView source) throws IOException
    {
        // a batch may still be in the engine when the next arrives: never overwritten
        return deserialize(source);
    }

    @Override
    public void copy(final DataInputView source, final DataOutputView target) throws IOException
    {
        target.writeInt(source.readInt());
        target.writeLong(source.readLong());
        target.writeInt(source.readInt());
        final int used = source.readInt();
        target.writeInt(used);
        // through an array: some views (DataOutputSerializer) do not grow for write(DataInputView, int)
        final byte[] data = new byte[used];
        source.readFully(data);
        target.write(data);
    }

    @Override
    public TypeSerializerSnapshot<PacketBatch> snapshotConfiguration()
    {
        return new Snapshot();
    }

    /** What Flink keeps of the serializer: nothing but its class. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<PacketBatch>
    {
        /** For Flink, which creates it by reflection. */
        public Snapshot()
        {
            super(() -> INSTANCE);
        }
    }
}
