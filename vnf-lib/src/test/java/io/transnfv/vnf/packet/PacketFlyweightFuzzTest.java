package io.transnfv.vnf.packet;

import java.nio.ByteBuffer;
import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the packet view (Jazzer): any bytes, behind any supported link
 * header, captured whole or cut by a snap length, parse without an exception, keep every
 * offset inside the frame, read the same from an array and from a direct buffer, and take
 * every rewrite without an exception. The seeds (in {@code PacketFlyweightFuzzTestInputs})
 * are frames of the real test traces; without {@code JAZZER_FUZZ} only they run.
 *
 * <pre>
 *  input:  [link type selector] [wire length extra, 2 bytes] [frame bytes ...]
 * </pre>
 */
class PacketFlyweightFuzzTest
{
    private static final int[] LINK_TYPES =
    {
        LinkType.ETHERNET, LinkType.NULL, LinkType.LOOP, LinkType.LINUX_SLL, LinkType.LINUX_SLL2
    };

    private final PacketFlyweight inArray = new PacketFlyweight();
    private final PacketFlyweight inBuffer = new PacketFlyweight();

    @FuzzTest
    void shouldParseAndRewriteAnyFrameWithoutThrowing(final byte[] input)
    {
        if (input.length < 3)
        {
            return;
        }
        final int linkType = LINK_TYPES[(input[0] & 0xFF) % LINK_TYPES.length];
        final int extra = ((input[1] & 0xFF) << 8) | (input[2] & 0xFF);
        final int length = input.length - 3;
        final int wireLength = length + extra;
        final byte[] frame = Arrays.copyOfRange(input, 3, input.length);
        final ByteBuffer direct = ByteBuffer.allocateDirect(length + 5);
        direct.put(5, frame);

        inArray.wrap(frame, 0, length, wireLength, linkType);
        inBuffer.wrap(direct, 5, length, wireLength, linkType);

        assertEquals(inArray.malformedReason(), inBuffer.malformedReason());
        assertEquals(inArray.l3Offset() == 0 ? 0 : inArray.l3Offset() + 5, inBuffer.l3Offset());
        assertEquals(FlowKeys.fiveTuple(inArray), FlowKeys.fiveTuple(inBuffer));
        assertEquals(inArray.toString(), inBuffer.toString());
        if (inArray.isValid())
        {
            assertTrue(inArray.payloadOffset() >= inArray.l4Offset() && inArray.l4Offset() >= inArray.l3Offset(),
                inArray.toString());
            assertTrue(inArray.payloadOffset() + inArray.payloadLength() <= length, inArray.toString());
            assertTrue(inArray.payloadLength() >= 0, inArray.toString());
            if (inArray.payloadLength() > 0)
            {
                inArray.getU8(inArray.payloadOffset() + inArray.payloadLength() - 1);
            }
        }
        rewrite(inArray);
        rewrite(inBuffer);
        final byte[] rewritten = new byte[length];
        direct.get(5, rewritten);
        assertTrue(Arrays.equals(frame, rewritten), "the same rewrites give the same bytes in both memories");
    }

    private static void rewrite(final PacketFlyweight packet)
    {
        packet.setSrcIpv4(0x0A000001);
        packet.setDstIpv4(0xC0A80105);
        packet.setSrcPort(40000);
        packet.setDstPort(8080);
        packet.setTtl(packet.ttl() - 1);
        FlowKeys.biflow(packet);
        FlowKeys.threeTuple(packet);
    }
}
