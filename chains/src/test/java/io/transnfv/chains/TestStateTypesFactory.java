package io.transnfv.chains;

import io.transnfv.tpg.txn.FunctionContext;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.StateRing;
import io.transnfv.vnf.api.StateSet;
import io.transnfv.vnf.api.StateStruct;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;

/**
 * A test-only VNF type, {@code test-state-types}, that exercises every operation of a set table,
 * a ring table and a struct table: table {@code ports} (a set) holds, per source host, the destination ports
 * it opened, table {@code recent} (a ring of 4) the last ports it opened. A SYN adds its port
 * (alert {@code many-ports} when the set grows past {@code threshold}) and pushes it (tag
 * {@code pushed} = pushes before it), a FIN removes it (tag {@code removed} 1 or 0), any other
 * packet asks whether its port is a member and how big its source's set is (tags {@code member},
 * {@code size}) and reads the ring (tags {@code pushes} and {@code recent}, the last ports
 * newest first, 16 bits each). Table {@code hosts} (a struct of {@code packets} and
 * {@code score}) counts each source's packets and adds 3 × the new count + 1 to its score, and
 * on a SYN adds the source's score to its destination port's score (a struct keyed by the
 * port); a query reads the source's whole struct (tags {@code packets}, {@code score}). Every
 * transaction then
 * bumps its source's packet count in the value table {@code seen} and aborts when the count
 * plus the packet's time in microseconds is a multiple of {@code abort_every}, which depends on
 * the order of the source's earlier packets, so the set operations before it must be undone.
 */
public final class TestStateTypesFactory implements VnfFactory
{
    /** The type name. */
    public static final String TYPE = "test-state-types";

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public String description()
    {
        return "Test VNF using a set, a ring and a struct table: the destination ports each source host opened.";
    }

    @Override
    public List<ParamSpec> params()
    {
        return List.of(
            ParamSpec.optional("threshold", ParamKind.INT, 4, "ports that make an alert").range(1, 65536),
            ParamSpec.optional("abort_every", ParamKind.INT, 7, "abort a source's every n-th packet").range(2, 1_000_000));
    }

    @Override
    public Vnf create(final VnfConfig config)
    {
        return new PortSet(config.getInt("threshold"), config.getInt("abort_every"));
    }

    private static final class PortSet implements Vnf
    {
        private static final int KIND_SLOT = 0;
        private static final int KIND_NONE = 0;
        private static final int KIND_ADD = 1;
        private static final int KIND_REMOVE = 2;
        private static final int KIND_QUERY = 3;
        private static final int FIRST_SLOT = 1;
        private static final int RING_SLOT = 2;
        private static final int RING = 4;
        private static final int STRUCT_SLOT = 3;
        private static final int PACKETS = 0;
        private static final int SCORE = 1;
        private static final long PORT_SALT = 0x1F83D9ABFB41BD6BL;
        private static final StateFunction COUNT = (current, ctx) -> current + 1;
        private static final StateFunction SCORE_FROM_SEEN = (current, ctx) -> current + 3 * ctx.param(0) + 1;
        private static final StateFunction PLUS_SEEN = (current, ctx) -> current + ctx.param(0);
        private static final int ABORTED = 3;

        private final int threshold;
        private final StateFunction countOrAbort;
        private int portsTable;
        private int seenTable;
        private int recentTable;
        private int hostsTable;
        private int packetsTag;
        private int scoreTag;
        private int pushedTag;
        private int pushesTag;
        private int recentTag;
        private int manyPorts;
        private int removedTag;
        private int memberTag;
        private int sizeTag;

        PortSet(final int threshold, final int abortEvery)
        {
            this.threshold = threshold;
            this.countOrAbort = (current, ctx) -> countOrAbort(current, ctx, abortEvery);
        }

        private static long countOrAbort(final long current, final FunctionContext ctx, final int abortEvery)
        {
            if ((current + ctx.timestampNs() / 1000) % abortEvery == 0)
            {
                ctx.abort(ABORTED);
            }
            return current + 1;
        }

        @Override
        public void setup(final VnfSetup setup)
        {
            portsTable = setup.table(new TableSpec("ports", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
                "source host -> set of destination ports opened").asSet());
            recentTable = setup.table(new TableSpec("recent", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
                "source host -> last destination ports opened").asRing(RING));
            hostsTable = setup.table(new TableSpec("hosts", TableScope.CROSS_FLOW, KeyKind.HOST, 0L,
                "source host or destination port -> packets, score").asStruct("packets", "score"));
            seenTable = setup.table(new TableSpec("seen", TableScope.CROSS_FLOW, KeyKind.HOST, 0L, "source host -> packets"));
            manyPorts = setup.alertType("many-ports");
            removedTag = setup.tag("removed");
            memberTag = setup.tag("member");
            sizeTag = setup.tag("size");
            pushedTag = setup.tag("pushed");
            pushesTag = setup.tag("pushes");
            recentTag = setup.tag("recent");
            packetsTag = setup.tag("packets");
            scoreTag = setup.tag("score");
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
            if (!packet.isValid() || !packet.isIp() || !packet.hasPorts())
            {
                txn.scratch(KIND_SLOT, KIND_NONE);
                return;
            }
            final long source = FlowKeys.srcHost(packet);
            final int port = packet.dstPort();
            final boolean tcp = packet.ipProtocol() == PacketFlyweight.PROTO_TCP;
            final int first;
            if (tcp && packet.isSyn() && !packet.isAck())
            {
                txn.scratch(KIND_SLOT, KIND_ADD);
                first = StateSet.add(txn, portsTable, source, port);
                txn.scratch(RING_SLOT, StateRing.push(txn, recentTable, RING, source, port));
            }
            else if (tcp && (packet.tcpFlags() & PacketFlyweight.TCP_FIN) != 0)
            {
                txn.scratch(KIND_SLOT, KIND_REMOVE);
                first = StateSet.remove(txn, portsTable, source, port);
            }
            else
            {
                txn.scratch(KIND_SLOT, KIND_QUERY);
                first = StateSet.contains(txn, portsTable, source, port);
                StateSet.size(txn, portsTable, source);
                txn.scratch(RING_SLOT, StateRing.read(txn, recentTable, RING, source));
            }
            txn.scratch(FIRST_SLOT, first);
            StateStruct.update(txn, hostsTable, source, PACKETS, COUNT, 0L);
            StateStruct.update(txn, hostsTable, source, SCORE, SCORE_FROM_SEEN, 0L);
            StateStruct.see(txn, hostsTable, source, PACKETS);
            if (tcp && packet.isSyn() && !packet.isAck())
            {
                StateStruct.update(txn, hostsTable, FlowKeys.mix64(PORT_SALT ^ port), SCORE, PLUS_SEEN, 0L);
                StateStruct.see(txn, hostsTable, source, SCORE);
            }
            else
            {
                txn.scratch(STRUCT_SLOT, StateStruct.readAll(txn, hostsTable, 2, source));
            }
            txn.readModify(seenTable, source, countOrAbort, 0L);
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
            final long kind = result.scratch(KIND_SLOT);
            if (kind == KIND_NONE || result.aborted())
            {
                return;
            }
            final int op = (int)result.scratch(FIRST_SLOT);
            if (kind == KIND_ADD)
            {
                if (StateSet.sizeBefore(result, op) < threshold && StateSet.sizeAfter(result, op) >= threshold)
                {
                    actions.alert(manyPorts, FlowKeys.srcHost(packet));
                }
                actions.tag(pushedTag, StateRing.pushesBefore(result, (int)result.scratch(RING_SLOT)));
            }
            else if (kind == KIND_REMOVE)
            {
                actions.tag(removedTag, StateSet.removed(result, op) ? 1 : 0);
            }
            else
            {
                actions.tag(memberTag, StateSet.contains(result, op) ? 1 : 0);
                actions.tag(sizeTag, StateSet.sizeAfter(result, op + 1));
                final int ring = (int)result.scratch(RING_SLOT);
                long recent = 0;
                for (int back = 0; back < StateRing.length(result, ring, RING); back++)
                {
                    recent |= StateRing.last(result, ring, RING, back) << (16 * back);
                }
                actions.tag(pushesTag, StateRing.pushes(result, ring));
                actions.tag(recentTag, recent);
                final int struct = (int)result.scratch(STRUCT_SLOT);
                actions.tag(packetsTag, StateStruct.value(result, struct, PACKETS));
                actions.tag(scoreTag, StateStruct.value(result, struct, SCORE));
            }
        }
    }
}
