package io.transnfv.chains;

import io.transnfv.tpg.txn.StateFunction;
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
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;
import java.util.concurrent.locks.LockSupport;

/**
 * A test VNF whose code fails on chosen packets: a per-flow packet counter (so its state and its
 * tags depend on every packet before), which in one callback throws an exception, throws an
 * error or never returns (until released) on the packets whose time in microseconds is a
 * multiple of {@code every} (housekeeping: on every other tick). Its expiry halves every counter.
 */
final class FaultyVnf implements Vnf
{
    /** Where the VNF fails. */
    enum Where
    {
        PRE_PROCESS, STATE_FUNCTION, POST_PROCESS, EXPIRE, NOWHERE
    }

    /** How it fails. */
    enum How
    {
        EXCEPTION, ERROR, HANG
    }

    static final long EXPIRY_INTERVAL_NS = 1_000_000L;

    private final Where where;
    private final How how;
    private final LongPredicate chosenAt;
    private final AtomicBoolean release;
    private final StateFunction increment;
    private int table;
    private int countTag;

    FaultyVnf(final Where where, final How how, final long every, final AtomicBoolean release)
    {
        this(where, how, timeNs -> (timeNs / 1_000) % every == 0, release);
    }

    /** A VNF that fails on the packets whose time {@code chosenAt} accepts. */
    FaultyVnf(final Where where, final How how, final LongPredicate chosenAt, final AtomicBoolean release)
    {
        this.where = where;
        this.how = how;
        this.chosenAt = chosenAt;
        this.release = release;
        this.increment = (current, ctx) ->
        {
            failIfChosen(Where.STATE_FUNCTION, ctx.timestampNs());
            return current + 1;
        };
    }

    /** @return a factory of this VNF, for a {@code VnfNode}. */
    static VnfFactory factory(final Where where, final How how, final long every, final AtomicBoolean release)
    {
        return factory(where, how, timeNs -> (timeNs / 1_000) % every == 0, release);
    }

    /** @return a factory of a VNF that fails on the packets whose time {@code chosenAt} accepts. */
    static VnfFactory factory(final Where where, final How how, final LongPredicate chosenAt, final AtomicBoolean release)
    {
        return new VnfFactory()
        {
            @Override
            public String type()
            {
                return "test-faulty";
            }

            @Override
            public String description()
            {
                return "Test VNF that fails on chosen packets.";
            }

            @Override
            public List<ParamSpec> params()
            {
                return List.of();
            }

            @Override
            public Vnf create(final VnfConfig config)
            {
                return new FaultyVnf(where, how, chosenAt, release);
            }
        };
    }

    /** @return true if the packet at {@code timeNs} is one the VNF fails on. */
    boolean chosen(final long timeNs)
    {
        return chosenAt.test(timeNs);
    }

    private void failIfChosen(final Where at, final long timeNs)
    {
        // housekeeping fails on every other tick, packets on one in `every`
        if (at != where || !(at == Where.EXPIRE ? (timeNs / EXPIRY_INTERVAL_NS) % 2 == 1 : chosen(timeNs)))
        {
            return;
        }
        switch (how)
        {
            case EXCEPTION -> throw new IllegalStateException("injected fault at " + timeNs);
            case ERROR -> throw new AssertionError("injected error at " + timeNs);
            default ->
            {
                while (!release.get())
                {
                    LockSupport.parkNanos(1_000_000L);
                }
            }
        }
    }

    @Override
    public void setup(final VnfSetup setup)
    {
        table = setup.table(new TableSpec("count", TableScope.PER_FLOW, KeyKind.FLOW, 0, "packets per flow"));
        countTag = setup.tag("count");
        setup.expiryIntervalNs(EXPIRY_INTERVAL_NS);
    }

    @Override
    public void preProcess(final PacketFlyweight packet, final TransactionBuilder txn)
    {
        failIfChosen(Where.PRE_PROCESS, txn.timestampNs());
        txn.readModify(table, FlowKeys.fiveTuple(packet), increment, 0);
    }

    @Override
    public void postProcess(final PacketFlyweight packet, final TransactionView result, final PacketActions actions)
    {
        actions.tag(countTag, result.after(0));
        failIfChosen(Where.POST_PROCESS, result.timestampNs());
    }

    @Override
    public void expire(final long nowNs, final StateMaintenance state)
    {
        // halves every counter, then fails half-way through on chosen ticks: partial housekeeping is the same everywhere
        final boolean[] first = {true};
        state.forEach(table, (key, value) ->
        {
            state.put(table, key, value / 2);
            if (first[0])
            {
                first[0] = false;
                failIfChosen(Where.EXPIRE, nowNs);
            }
        });
    }
}
