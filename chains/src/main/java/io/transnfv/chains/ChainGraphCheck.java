package io.transnfv.chains;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the chain's graph once its VNFs and edges are read: edges that are never taken
 * because an earlier unconditional edge takes every packet, cycles (a chain is a DAG), and
 * VNFs no packet can reach from the entry VNF. Setup only.
 */
final class ChainGraphCheck
{
    private final ChainErrors errors;
    private final List<VnfsReader.Vnf> vnfs;
    private final List<List<EdgesReader.Edge>> out;
    private final Set<Integer> targetsOfBrokenEdges = new HashSet<>();

    /**
     * @param errors where problems are added.
     * @param vnfs   the VNFs read; the first is the entry.
     * @param edges  the edges read.
     */
    ChainGraphCheck(final ChainErrors errors, final List<VnfsReader.Vnf> vnfs, final List<EdgesReader.Edge> edges)
    {
        this.errors = errors;
        this.vnfs = vnfs;
        this.out = new ArrayList<>(vnfs.size());
        for (int i = 0; i < vnfs.size(); i++)
        {
            out.add(new ArrayList<>());
        }
        for (final EdgesReader.Edge edge : edges)
        {
            if (edge.from() < 0)
            {
                targetsOfBrokenEdges.add(edge.to());
            }
            else
            {
                out.get(edge.from()).add(edge);
            }
        }
    }

    /** Reports shadowed edges, cycles and unreachable VNFs. */
    void check()
    {
        if (vnfs.isEmpty())
        {
            return;
        }
        checkShadowedEdges();
        checkCycles();
        checkReachability();
    }

    private void checkReachability()
    {
        final boolean[] reached = new boolean[vnfs.size()];
        final ArrayDeque<Integer> queue = new ArrayDeque<>();
        reached[0] = true;
        queue.add(0);
        while (!queue.isEmpty())
        {
            for (final EdgesReader.Edge edge : out.get(queue.poll()))
            {
                if (!reached[edge.to()])
                {
                    reached[edge.to()] = true;
                    queue.add(edge.to());
                }
            }
        }
        for (int i = 1; i < vnfs.size(); i++)
        {
            if (!reached[i] && !targetsOfBrokenEdges.contains(i))
            {
                final String name = vnfs.get(i).name();
                errors.add(vnfs.get(i).at(), "VNF '" + name + "' is unreachable from the entry VNF '" + vnfs.get(0).name() + "'",
                    "add an edge '- from: <vnf> to: " + name + "', or remove it; every packet starts at the first VNF listed");
            }
        }
    }

    private void checkShadowedEdges()
    {
        for (final List<EdgesReader.Edge> fromOne : out)
        {
            final Map<String, EdgesReader.Edge> unconditional = new HashMap<>();
            for (final EdgesReader.Edge edge : fromOne)
            {
                final EdgesReader.Edge earlier = unconditional.get(edge.output());
                if (earlier != null)
                {
                    errors.add(edge.at(), "this edge is never taken: the edge at " + earlier.at().line() + ":"
                        + earlier.at().column() + " from '" + vnfs.get(edge.from()).name() + "' output '" + edge.output()
                        + "' has no 'when' and takes every packet first",
                        "move this edge above that one, or give that edge a 'when'");
                }
                else if (!edge.conditional())
                {
                    unconditional.put(edge.output(), edge);
                }
            }
        }
    }

    private void checkCycles()
    {
        final int[] state = new int[vnfs.size()]; // 0 unvisited, 1 on the path, 2 done
        final ArrayDeque<EdgesReader.Edge> path = new ArrayDeque<>();
        for (int i = 0; i < vnfs.size(); i++)
        {
            if (state[i] == 0)
            {
                findCycles(i, state, path);
            }
        }
    }

    private void findCycles(final int vertex, final int[] state, final ArrayDeque<EdgesReader.Edge> path)
    {
        state[vertex] = 1;
        for (final EdgesReader.Edge edge : out.get(vertex))
        {
            if (state[edge.to()] == 1)
            {
                reportCycle(edge, path);
            }
            else if (state[edge.to()] == 0)
            {
                path.addLast(edge);
                findCycles(edge.to(), state, path);
                path.removeLast();
            }
        }
        state[vertex] = 2;
    }

    private void reportCycle(final EdgesReader.Edge closing, final ArrayDeque<EdgesReader.Edge> path)
    {
        final List<EdgesReader.Edge> cycle = new ArrayList<>();
        final List<EdgesReader.Edge> onPath = new ArrayList<>(path);
        for (int i = onPath.size() - 1; i >= 0 && (cycle.isEmpty() || cycle.get(0).from() != closing.to()); i--)
        {
            cycle.add(0, onPath.get(i));
        }
        if (closing.from() == closing.to())
        {
            cycle.clear();
        }
        cycle.add(closing);
        final StringBuilder names = new StringBuilder(vnfs.get(closing.to()).name());
        final StringBuilder where = new StringBuilder();
        for (final EdgesReader.Edge edge : cycle)
        {
            names.append(" -> ").append(vnfs.get(edge.to()).name());
            where.append(where.length() == 0 ? "" : ", ").append(vnfs.get(edge.from()).name()).append(" -> ")
                .append(vnfs.get(edge.to()).name()).append(" at ").append(edge.at().line()).append(':')
                .append(edge.at().column());
        }
        errors.add(closing.at(), "the edges form a cycle: " + names,
            "a chain is a DAG: remove or redirect one of these edges (" + where + ")");
    }
}
