package io.transnfv.experiments.scheduling;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one run of {@link SchedulingBenchmark} measured, in one JVM or pooled over several:
 * per steady workload the contestants' per-chunk samples, the phase-changing workload's
 * samples and each chunk's phase, and the adaptive strategies' decisions. Written as two CSV
 * files (samples; decisions next to them) and read back, which is how forked JVMs hand their
 * results to the parent.
 *
 * <pre>
 *  samples:    threads,batchOps,workload,strategy,chunk,phase,ns,ops,fork
 *  decisions:  row,policy,batches           (row = "lb20 adaptive", "phases adaptive-feedback", ...)
 * </pre>
 */
final class MeasuredSamples
{
    private static final String HEADER = "threads,batchOps,workload,strategy,chunk,phase,ns,ops,fork";
    private static final String DECISIONS_HEADER = "row,policy,batches";

    private final int threads;
    private final int batchOps;
    private final Map<String, InterleavedMeasurement.Samples> steady = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> decisions = new LinkedHashMap<>();
    private InterleavedMeasurement.Samples phases;
    private String[] phaseOfChunk;
    private int forks = 1;

    MeasuredSamples(final int threads, final int batchOps)
    {
        this.threads = threads;
        this.batchOps = batchOps;
    }

    /** @return per steady workload, in measurement order, its samples (mutable). */
    Map<String, InterleavedMeasurement.Samples> steady()
    {
        return steady;
    }

    /** @return per row ("lb20 adaptive"), the batches each policy ran (mutable). */
    Map<String, Map<String, Long>> decisions()
    {
        return decisions;
    }

    /** @return the phase-changing workload's samples, or null if it was not measured. */
    InterleavedMeasurement.Samples phases()
    {
        return phases;
    }

    /** @return the phase of each chunk of {@link #phases()}. */
    String[] phaseOfChunk()
    {
        return phaseOfChunk;
    }

    void phases(final InterleavedMeasurement.Samples samples, final String[] phaseOfChunk)
    {
        if (phaseOfChunk.length != samples.ops().length)
        {
            throw new IllegalArgumentException(phaseOfChunk.length + " phases for " + samples.ops().length + " chunks");
        }
        this.phases = samples;
        this.phaseOfChunk = phaseOfChunk;
    }

    /** @return the JVMs whose chunks these are. */
    int forks()
    {
        return forks;
    }

    /**
     * @return the runs' chunks one after another (run 1's, then run 2's...) and their
     *         decisions summed. Every run must have measured the same rows with the same
     *         contestants.
     */
    static MeasuredSamples pool(final List<MeasuredSamples> runs)
    {
        if (runs.isEmpty())
        {
            throw new IllegalArgumentException("nothing to pool");
        }
        final MeasuredSamples first = runs.get(0);
        final MeasuredSamples pooled = new MeasuredSamples(first.threads, first.batchOps);
        pooled.forks = runs.stream().mapToInt(r -> r.forks).sum();
        for (final String w : first.steady.keySet())
        {
            pooled.steady.put(w, concatenate(w, runs.stream().map(r -> r.steady.get(w)).toList()));
        }
        if (first.phases != null)
        {
            final List<String> phaseOf = new ArrayList<>();
            for (final MeasuredSamples r : runs)
            {
                if (r.phases == null)
                {
                    throw new IllegalArgumentException("a run did not measure the phase-changing workload");
                }
                phaseOf.addAll(List.of(r.phaseOfChunk));
            }
            pooled.phases(concatenate(SchedulingBenchmark.PHASES, runs.stream().map(r -> r.phases).toList()), phaseOf.toArray(String[]::new));
        }
        for (final MeasuredSamples r : runs)
        {
            r.decisions.forEach((row, chosen) ->
                chosen.forEach((policy, batches) -> pooled.decisions.computeIfAbsent(row, x -> new LinkedHashMap<>()).merge(policy, batches, Long::sum)));
        }
        return pooled;
    }

    private static InterleavedMeasurement.Samples concatenate(final String row, final List<InterleavedMeasurement.Samples> parts)
    {
        final List<String> names = parts.get(0).names();
        int chunks = 0;
        for (final InterleavedMeasurement.Samples p : parts)
        {
            if (p == null || !p.names().equals(names))
            {
                throw new IllegalArgumentException("runs measured different contestants for " + row);
            }
            chunks += p.ops().length;
        }
        final long[][] ns = new long[names.size()][chunks];
        final long[] ops = new long[chunks];
        int at = 0;
        for (final InterleavedMeasurement.Samples p : parts)
        {
            final int n = p.ops().length;
            for (int c = 0; c < names.size(); c++)
            {
                System.arraycopy(p.ns()[c], 0, ns[c], at, n);
            }
            System.arraycopy(p.ops(), 0, ops, at, n);
            at += n;
        }
        return new InterleavedMeasurement.Samples(names, ns, ops);
    }

    /** Writes the samples to {@code csv} and the decisions to {@link #decisionsPath}({@code csv}). */
    void write(final Path csv) throws IOException
    {
        final Path dir = csv.toAbsolutePath().getParent();
        if (dir != null)
        {
            Files.createDirectories(dir);
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8)))
        {
            out.println(HEADER);
            for (final Map.Entry<String, InterleavedMeasurement.Samples> e : steady.entrySet())
            {
                write(out, e.getKey(), e.getValue(), null);
            }
            if (phases != null)
            {
                write(out, SchedulingBenchmark.PHASES, phases, phaseOfChunk);
            }
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(decisionsPath(csv), StandardCharsets.UTF_8)))
        {
            out.println(DECISIONS_HEADER);
            decisions.forEach((row, chosen) -> chosen.forEach((policy, batches) -> out.println(row + "," + policy + "," + batches)));
        }
    }

    private void write(final PrintWriter out, final String workload, final InterleavedMeasurement.Samples s, final String[] phaseOf)
    {
        final int chunks = s.ops().length;
        final int perFork = chunks / forks;
        for (int c = 0; c < s.names().size(); c++)
        {
            for (int k = 0; k < chunks; k++)
            {
                out.printf(Locale.ROOT, "%d,%d,%s,%s,%d,%s,%d,%d,%d%n", threads, batchOps, workload, s.names().get(c), k,
                    phaseOf == null ? workload : phaseOf[k], s.ns()[c][k], s.ops()[k], 1 + k / perFork);
            }
        }
    }

    /** @return what {@link #write} wrote to {@code csv} and its decisions file. */
    static MeasuredSamples read(final Path csv) throws IOException
    {
        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER))
        {
            throw new IOException(csv + ": not a scheduling benchmark sample file (expected the header " + HEADER + ")");
        }
        // workload -> strategy -> chunk -> ns; workload -> chunk -> ops / phase
        final Map<String, Map<String, Map<Integer, Long>>> ns = new LinkedHashMap<>();
        final Map<String, Map<Integer, Long>> ops = new LinkedHashMap<>();
        final Map<Integer, String> phaseOf = new LinkedHashMap<>();
        int threads = 0;
        int batchOps = 0;
        for (int i = 1; i < lines.size(); i++)
        {
            final String[] f = lines.get(i).split(",");
            if (f.length != 9)
            {
                throw new IOException(csv + " line " + (i + 1) + ": expected 9 fields, got " + f.length);
            }
            try
            {
                threads = Integer.parseInt(f[0]);
                batchOps = Integer.parseInt(f[1]);
                final int chunk = Integer.parseInt(f[4]);
                ns.computeIfAbsent(f[2], x -> new LinkedHashMap<>()).computeIfAbsent(f[3], x -> new LinkedHashMap<>())
                    .put(chunk, Long.parseLong(f[6]));
                ops.computeIfAbsent(f[2], x -> new LinkedHashMap<>()).put(chunk, Long.parseLong(f[7]));
                if (f[2].equals(SchedulingBenchmark.PHASES))
                {
                    phaseOf.put(chunk, f[5]);
                }
            }
            catch (final NumberFormatException e)
            {
                throw new IOException(csv + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        final MeasuredSamples m = new MeasuredSamples(threads, batchOps);
        for (final Map.Entry<String, Map<String, Map<Integer, Long>>> w : ns.entrySet())
        {
            final Map<Integer, Long> chunkOps = ops.get(w.getKey());
            final int chunks = chunkOps.size();
            final List<String> names = new ArrayList<>(w.getValue().keySet());
            final long[][] samples = new long[names.size()][chunks];
            final long[] o = new long[chunks];
            for (int k = 0; k < chunks; k++)
            {
                o[k] = chunkOps.get(k);
                for (int c = 0; c < names.size(); c++)
                {
                    final Long v = w.getValue().get(names.get(c)).get(k);
                    if (v == null)
                    {
                        throw new IOException(csv + ": no sample of " + names.get(c) + " on " + w.getKey() + " chunk " + k);
                    }
                    samples[c][k] = v;
                }
            }
            final InterleavedMeasurement.Samples s = new InterleavedMeasurement.Samples(names, samples, o);
            if (w.getKey().equals(SchedulingBenchmark.PHASES))
            {
                final String[] phase = new String[chunks];
                for (int k = 0; k < chunks; k++)
                {
                    phase[k] = phaseOf.get(k);
                }
                m.phases(s, phase);
            }
            else
            {
                m.steady.put(w.getKey(), s);
            }
        }
        final Path decisionsFile = decisionsPath(csv);
        if (Files.exists(decisionsFile))
        {
            final List<String> rows = Files.readAllLines(decisionsFile, StandardCharsets.UTF_8);
            for (int i = 1; i < rows.size(); i++)
            {
                final String[] f = rows.get(i).split(",");
                m.decisions.computeIfAbsent(f[0], x -> new LinkedHashMap<>()).merge(f[1], Long.parseLong(f[2]), Long::sum);
            }
        }
        return m;
    }

    /** @return the decisions file written next to {@code csv}. */
    static Path decisionsPath(final Path csv)
    {
        return sibling(csv, "-decisions");
    }

    /** @return {@code csv} with {@code suffix} inserted before its extension ({@code a.csv} → {@code a-fork1.csv}). */
    static Path sibling(final Path csv, final String suffix)
    {
        final String name = csv.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        final String renamed = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
        return csv.resolveSibling(renamed);
    }
}
