package io.transnfv.flink.operator;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Tells Flink to move {@link PacketBatch}es with {@link PacketBatchSerializer} rather than a
 * generic serializer of its choosing. Given to the reader's output ({@code returns(...)}).
 */
public final class PacketBatchTypeInfo extends TypeInformation<PacketBatch>
{
    /** The one instance. */
    public static final PacketBatchTypeInfo INSTANCE = new PacketBatchTypeInfo();

    private static final long serialVersionUID = 1L;

    private PacketBatchTypeInfo()
    {
    }

    @Override
    public boolean isBasicType()
    {
        return false;
    }

    @Override
    public boolean isTupleType()
    {
        return false;
    }

    @Override
    public int getArity()
    {
        return 1;
    }

    @Override
    public int getTotalFields()
    {
        return 1;
    }

    @Override
    public Class<PacketBatch> getTypeClass()
    {
        return PacketBatch.class;
    }

    @Override
    public boolean isKeyType()
    {
        return false;
    }

    @Override
    public TypeSerializer<PacketBatch> createSerializer(final SerializerConfig config)
    {
        return PacketBatchSerializer.INSTANCE;
    }

    @Override
    public String toString()
    {
        return "PacketBatch";
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PacketBatchTypeInfo;
    }

    @Override
    public int hashCode()
    {
        return PacketBatchTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(final Object other)
    {
        return other instanceof PacketBatchTypeInfo;
    }
}
