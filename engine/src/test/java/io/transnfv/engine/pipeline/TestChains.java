package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.source.GeneratorConfig;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PacketActions;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.StateMaintenance;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.Vnf;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfSetup;
import io.transnfv.vnf.packet.FlowKeys;
import io.transnfv.vnf.packet.FrameBuilder;
import io.transnfv.vnf.packet.Ipv4;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Small VNFs, chains and sources for executor tests. */
final class TestChains
{
    private TestChains()
    {
    }

    /**
     * Counts packets per source host; every third packet of a host is dropped ("quota"), and
     * a host's count resets when {@code expire} finds it idle for more than 1 ms.
     */
    static final class QuotaVnf implements Vnf
    {
        private int counts;
        private int quota;
        private int alert;

        @Override
        public void setup(final VnfSetup setup)
        {
            counts = setup.table(new TableSpec("counts", TableScope.CROSS_FLOW, KeyKind.HOST, 0, "packets per host"));
            quota = setup.dropReason("quota");
            alert = setup.alertType("third");
            setup.expiryIntervalNs(1_000_000);
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
            if (packet.isIpv4())
            {
                txn.readModify(counts, FlowKeys.srcHost(packet), (v, ctx) -> v + 1, 0);
            }
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
            if (result.operationCount() > 0 && result.after(0) % 3 == 0)
            {
                actions.alert(alert, result.after(0));
                actions.drop(quota);
            }
        }

        @Override
        public void expire(final long nowNs, final StateMaintenance state)
        {
            state.forEach(counts, (key, value) -> state.put(counts, key, 0));
        }
    }

    /** Rewrites the destination port to 8080 and tags the packet with the old port. */
    static final class RewriteVnf implements Vnf
    {
        private int port;

        @Override
        public void setup(final VnfSetup setup)
        {
            port = setup.tag("port");
        }

        @Override
        public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
        {
        }

        @Override
        public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
        {
            actions.tag(port, packet.dstPort());
            packet.setDstPort(8080);
        }
    }

    static VnfFactory factory(final String type, final Supplier<Vnf> vnf)
    {
        return new VnfFactory()
        {
            @Override
            public String type()
            {
                return type;
            }

            @Override
            public String description()
            {
                return "test VNF";
            }

            @Override
            public List<ParamSpec> params()
            {
                return List.of();
            }

            @Override
            public Vnf create(final VnfConfig config)
            {
                return vnf.get();
            }
        };
    }

    /** quota → rewrite, only for TCP packets. */
    static ChainSpec quotaThenRewrite()
    {
        final VnfFactory quota = factory("quota", QuotaVnf::new);
        final VnfFactory rewrite = factory("rewrite", RewriteVnf::new);
        return new ChainSpec("test", "", List.of(
            new VnfNode("quota", quota, VnfConfig.defaults(List.of())),
            new VnfNode("rewrite", rewrite, VnfConfig.defaults(List.of()))),
            List.of(new EdgeSpec("quota", "out", p -> p.ipProtocol() == PacketFlyweight.PROTO_TCP, "proto: tcp", "rewrite")),
            RunSettings.defaults().withTraffic(TrafficSpec.generate(GeneratorConfig.defaults())));
    }

    /** A source over frames built in memory, with timestamps 0.4 ms apart. */
    static final class ListSource implements PacketSource
    {
        private final List<byte[]> frames = new ArrayList<>();
        private final SourceStats stats = new SourceStats();
        private int next;

        ListSource tcp(final String src, final int dstPort)
        {
            return add(new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse("192.0.2.1"))
                .tcp(1000, dstPort, PacketFlyweight.TCP_ACK, 1, 1));
        }

        ListSource udp(final String src, final int dstPort)
        {
            return add(new FrameBuilder().ipv4(Ipv4.parse(src), Ipv4.parse("192.0.2.1"))
                .udp(1000, dstPort));
        }

        ListSource raw(final byte[] frame)
        {
            frames.add(frame);
            return this;
        }

        private ListSource add(final FrameBuilder builder)
        {
            final byte[] frame = new byte[builder.length()];
            builder.write(frame, 0);
            frames.add(frame);
            return this;
        }

        @Override
        public boolean next(final PacketBuffer dst)
        {
            if (next == frames.size())
            {
                return false;
            }
            final byte[] frame = frames.get(next);
            System.arraycopy(frame, 0, dst.data(), 0, frame.length);
            dst.commit(frame.length, frame.length, 1_000_000_000L + next * 400_000L, next);
            stats.onPacket(frame.length);
            next++;
            return true;
        }

        @Override
        public SourceStats stats()
        {
            return stats;
        }

        @Override
        public String describe()
        {
            return frames.size() + " test frames";
        }

        @Override
        public void close()
        {
        }
    }
}
