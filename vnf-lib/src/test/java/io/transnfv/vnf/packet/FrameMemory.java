package io.transnfv.vnf.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The kinds of memory a {@link PacketFlyweight} reads frames from, for the tests that must
 * hold for every one of them. A test builds its frame in an array, {@link #place}s that
 * array, and wraps and reads the frame through the {@link Placed} frame.
 */
enum FrameMemory
{
    /** The array the frame was built in, wrapped with {@code wrap(byte[], ...)}. */
    HEAP_ARRAY,
    /**
     * A direct buffer in the machine's byte order with the frame at a non-zero, odd offset,
     * as a frame in a DPDK mbuf seen through the pool window.
     */
    DIRECT_BUFFER,
    /** A heap buffer sliced at array offset 5, so the view cannot use its array. */
    HEAP_BUFFER_SLICE;

    /** Where a frame starts in a buffer, relative to where it starts in the array it was built in. */
    private static final int DIRECT_BASE = 61;

    /**
     * @param source the array the test builds its frames in; its bytes are copied at each
     *               {@link Placed#wrap}.
     * @return a place for frames of {@code source} in this kind of memory.
     */
    Placed place(final byte[] source)
    {
        switch (this)
        {
            case HEAP_ARRAY:
                return new Placed(source, null, 0);
            case DIRECT_BUFFER:
                return new Placed(source,
                    ByteBuffer.allocateDirect(DIRECT_BASE + source.length).order(ByteOrder.nativeOrder()), DIRECT_BASE);
            case HEAP_BUFFER_SLICE:
                return new Placed(source, ByteBuffer.wrap(new byte[5 + source.length]).position(5).slice(), 0);
            default:
                throw new IllegalStateException(name());
        }
    }

    /** A frame's bytes in one kind of memory. */
    static final class Placed
    {
        private final byte[] source;
        private final ByteBuffer buffer;
        private final int base;

        private Placed(final byte[] source, final ByteBuffer buffer, final int base)
        {
            this.source = source;
            this.buffer = buffer;
            this.base = base;
        }

        /** @return the index in the memory under test of {@code index} in the source array. */
        int at(final int index)
        {
            return base + index;
        }

        /**
         * Copies the source array's first {@code offset + length} bytes into the memory
         * under test and wraps the frame there.
         *
         * @return {@code packet}, wrapped.
         */
        PacketFlyweight wrap(final PacketFlyweight packet, final int offset, final int length)
        {
            if (buffer == null)
            {
                return packet.wrap(source, offset, length);
            }
            buffer.put(base, source, 0, offset + length);
            return packet.wrap(buffer, base + offset, length);
        }

        /** Wraps the packet's frame again where it is, keeping any rewrites. */
        PacketFlyweight rewrap(final PacketFlyweight packet)
        {
            return buffer == null
                ? packet.wrap(source, packet.offset(), packet.frameLength())
                : packet.wrap(buffer, packet.offset(), packet.frameLength());
        }
    }
}
