package io.transnfv.scheduler;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One point of the scheduling space: an exploration, a granularity and an abort handling,
 * composed (never one class per combination). Immutable; shared by every batch it is chosen
 * for. Named {@code exploration/granularity/abort}, e.g. {@code bfs/op/eager},
 * {@code dfs/group/lazy}, {@code random/op/lazy}; {@link #parse} also accepts the long names
 * ({@code breadth-first/single-operation/eager-abort}).
 *
 * @param exploration   which ready unit next.
 * @param granularity   what a unit is.
 * @param abortHandling when aborts are resolved.
 */
public record SchedulingPolicy(Exploration exploration, Granularity granularity, AbortHandling abortHandling)
{
    /** Number of static policies: 3 explorations × 2 granularities × 2 abort handlings. */
    public static final int STATIC_COUNT = 12;

    private static final Exploration[] EXPLORATIONS = {
        new BreadthFirstExploration(), new DepthFirstExploration(), new RandomExploration(),
    };
    private static final Granularity[] GRANULARITIES = {new SingleOperationGranularity(), new OperationGroupGranularity()};
    private static final AbortHandling[] ABORTS = {new EagerAbort(), new LazyAbort()};
    private static final List<SchedulingPolicy> ALL = buildAll();

    /** Validates the composition. */
    public SchedulingPolicy
    {
        Objects.requireNonNull(exploration, "exploration");
        Objects.requireNonNull(granularity, "granularity");
        Objects.requireNonNull(abortHandling, "abortHandling");
    }

    private static List<SchedulingPolicy> buildAll()
    {
        final SchedulingPolicy[] all = new SchedulingPolicy[STATIC_COUNT];
        for (final Exploration x : EXPLORATIONS)
        {
            for (final Granularity g : GRANULARITIES)
            {
                for (final AbortHandling a : ABORTS)
                {
                    final SchedulingPolicy p = new SchedulingPolicy(x, g, a);
                    all[p.index()] = p;
                }
            }
        }
        return List.of(all);
    }

    /** @return the 12 static policies, indexed by {@link #index()}; shared instances. */
    public static List<SchedulingPolicy> allStatic()
    {
        return ALL;
    }

    /** @return the policy with {@link #index()} {@code index}. */
    public static SchedulingPolicy ofIndex(final int index)
    {
        return ALL.get(index);
    }

    /** @return structured breadth-first exploration, single-operation units, eager abort. */
    public static SchedulingPolicy breadthFirstSingleOperationEagerAbort()
    {
        return ALL.get(0);
    }

    /**
     * Parses {@code exploration/granularity/abort}: exploration {@code bfs | dfs | random}
     * (or {@code breadth-first | depth-first | unstructured | unstructured-random}),
     * granularity {@code op | group} (or {@code single-operation | operation-group}), abort
     * {@code eager | lazy} (or {@code eager-abort | lazy-abort}). Case-insensitive.
     *
     * @throws IllegalArgumentException naming the accepted values.
     */
    public static SchedulingPolicy parse(final String name)
    {
        final String[] parts = name.trim().toLowerCase(Locale.ROOT).split("/");
        if (parts.length != 3)
        {
            throw new IllegalArgumentException(
                "scheduling policy '" + name + "' is not exploration/granularity/abort, e.g. bfs/op/eager");
        }
        final int x = switch (parts[0])
        {
            case "bfs", "breadth-first" -> 0;
            case "dfs", "depth-first" -> 1;
            case "random", "unstructured", "unstructured-random" -> 2;
            default -> throw new IllegalArgumentException("exploration '" + parts[0] + "' is not bfs, dfs or random");
        };
        final int g = switch (parts[1])
        {
            case "op", "single-operation" -> 0;
            case "group", "operation-group" -> 1;
            default -> throw new IllegalArgumentException("granularity '" + parts[1] + "' is not op or group");
        };
        final int a = switch (parts[2])
        {
            case "eager", "eager-abort" -> 0;
            case "lazy", "lazy-abort" -> 1;
            default -> throw new IllegalArgumentException("abort handling '" + parts[2] + "' is not eager or lazy");
        };
        return ALL.get(x * 4 + g * 2 + a);
    }

    /** @return a dense index 0 .. 11: exploration × 4 + granularity × 2 + abort handling. */
    public int index()
    {
        return exploration.id() * 4 + granularity.id() * 2 + abortHandling.id();
    }

    /** @return the short name, e.g. {@code dfs/group/lazy}; {@link #parse} reads it back. */
    public String name()
    {
        return exploration.shortName() + "/" + granularity.shortName() + "/" + abortHandling.shortName();
    }

    @Override
    public String toString()
    {
        return name();
    }
}
