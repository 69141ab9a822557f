package io.transnfv.engine.control;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.tpg.txn.ChooseFunction;
import io.transnfv.tpg.txn.StateFunction;
import io.transnfv.tpg.txn.TransactionBuilder;
import io.transnfv.vnf.instance.VnfInstance;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the state entries a flow touches in every VNF of a chain by asking the VNFs
 * themselves: each VNF's {@link io.transnfv.vnf.api.Vnf#preProcess} is run on a packet of the
 * flow with a builder that only records the (table, key) pairs it declares, so the keys are
 * derived by the very code that derives them on the data path, whatever the VNF (built-in or
 * not) folds into them. Nothing is executed and no state is read here.
 *
 * <pre>
 *  packet of the flow ──► for each VNF, entry first: preProcess(packet, recorder)
 *                              read / write / readModify / add target ──► Access
 *                              readModify's param keys                ──► Access (param)
 *                              choose's candidates                    ──  left out: a pool
 *                                                                         (ports, servers) the flow
 *                                                                         picks from, not its own entry
 * </pre>
 *
 * <p>Every VNF sees the packet as given: a VNF behind one that rewrites headers (a NAT) keys the
 * rewritten packet on the data path, so ask again with the rewritten tuple for it. Any thread
 * may call {@link #probe}: pre-processing is stateless and may run on several threads at once.
 */
public final class FlowProbe
{
    /**
     * One entry a VNF's pre-processing declared for the flow.
     *
     * @param vnf    the VNF's index in the chain.
     * @param table  the table's index in the chain's catalogue.
     * @param key    the key.
     * @param access how the VNF declared it: {@code read}, {@code write}, {@code read-modify},
     *               {@code add} or {@code param} (read by another operation's function).
     */
    public record Access(int vnf, int table, long key, String access)
    {
    }

    /** One VNF's pre-processing threw on the flow's packet: it is left out, with why. */
    public record Failure(int vnf, String message)
    {
    }

    /**
     * What {@link #probe} found.
     *
     * @param accesses every (VNF, table, key) once, in chain order, entry first, then declaration order.
     * @param failures the VNFs whose pre-processing threw.
     */
    public record Result(List<Access> accesses, List<Failure> failures)
    {
    }

    private FlowProbe()
    {
    }

    /**
     * @param runtime the chain.
     * @param packet  a packet of the flow, parsed.
     * @return the entries each VNF declares for it.
     */
    public static Result probe(final ChainRuntime runtime, final PacketFlyweight packet)
    {
        final List<Access> accesses = new ArrayList<>();
        final List<Failure> failures = new ArrayList<>();
        for (final int v : runtime.topologicalOrder())
        {
            final VnfInstance instance = runtime.instance(v);
            final Recorder recorder = new Recorder(v);
            try
            {
                instance.vnf().preProcess(packet, recorder);
            }
            catch (final RuntimeException e)
            {
                failures.add(new Failure(v, String.valueOf(e.getMessage())));
                continue;
            }
            for (final Access a : recorder.accesses)
            {
                if (accesses.stream().noneMatch(o -> o.vnf() == v && o.table() == a.table() && o.key() == a.key()))
                {
                    accesses.add(a);
                }
            }
        }
        return new Result(accesses, failures);
    }

    /** Records declarations, executes nothing. */
    private static final class Recorder implements TransactionBuilder
    {
        private final int vnf;
        private final List<Access> accesses = new ArrayList<>();
        private int operations;

        Recorder(final int vnf)
        {
            this.vnf = vnf;
        }

        @Override
        public long timestampNs()
        {
            return 0L;
        }

        private int record(final int table, final long key, final String access)
        {
            accesses.add(new Access(vnf, table, key, access));
            return operations++;
        }

        @Override
        public int read(final int table, final long key)
        {
            return record(table, key, "read");
        }

        @Override
        public int write(final int table, final long key, final long value)
        {
            return record(table, key, "write");
        }

        @Override
        public int readModify(final int table, final long key, final StateFunction fn, final long operand)
        {
            return record(table, key, "read-modify");
        }

        @Override
        public int choose(final int table, final ChooseFunction chooser, final StateFunction update, final long operand)
        {
            return operations++;
        }

        @Override
        public int add(final int table, final long key, final StateFunction delta, final long operand)
        {
            return record(table, key, "add");
        }

        @Override
        public int defer(final int table, final long key, final StateFunction fn, final long operand)
        {
            return record(table, key, "fire-and-forget");
        }

        @Override
        public int staleRead(final int table, final long key)
        {
            return record(table, key, "stale-read");
        }

        @Override
        public int staleChoose(final int table, final ChooseFunction chooser, final StateFunction delta, final long operand)
        {
            return operations++;
        }

        @Override
        public void param(final int table, final long key)
        {
            accesses.add(new Access(vnf, table, key, "param"));
        }

        @Override
        public void candidate(final long key)
        {
            // a pool the flow picks from: not the flow's own entry
        }

        @Override
        public void scratch(final int slot, final long value)
        {
            // post-processing's notes: no state
        }
    }
}
