package io.transnfv.flink.job;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.pipeline.PacketSources;
import io.transnfv.engine.pipeline.SerialChainExecutor;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.flink.route.PacketRouter;
import io.transnfv.flink.route.SubtaskSource;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chain output equivalence for a Flink run: each subtask's committed records and final state
 * against the serial oracle run over that subtask's packets, and, where the chain's tables make
 * the subtasks independent, the union of the subtasks against the oracle over the whole traffic.
 */
public final class FlinkEquivalence
{
    private FlinkEquivalence()
    {
    }

    /**
     * One comparison.
     *
     * @param what        {@code subtask i} or {@code union}.
     * @param packets     the oracle's records compared.
     * @param equivalent  true if every record and the final state are equal.
     * @param difference  the first difference, as {@code oracle: ... / flink: ...}; null when equal.
     */
    public record Check(String what, long packets, boolean equivalent, String difference)
    {
    }

    /**
     * @param chain  the chain the run ran, with its traffic.
     * @param result what the run committed.
     * @return one check per subtask, then the union's if the subtasks are independent.
     * @throws IOException if the traffic cannot be read.
     */
    public static List<Check> check(final ChainSpec chain, final FlinkRunResult result) throws IOException
    {
        final List<Check> checks = new ArrayList<>();
        final PacketRouter router = new PacketRouter(result.partitioning().routing(), result.parallelism());
        for (int i = 0; i < result.parallelism(); i++)
        {
            final Oracle oracle = oracle(chain, new SubtaskSource(PacketSources.open(chain.settings().traffic()), router, i));
            checks.add(compare("subtask " + i, oracle.records, result.records(i), lines(oracle.state), lines(result.stateDump(i))));
        }
        if (result.partitioning().independent())
        {
            final Oracle whole = oracle(chain, PacketSources.open(chain.settings().traffic()));
            final List<String> records = new ArrayList<>(whole.records);
            records.sort((a, b) -> Long.compare(sequenceOf(a), sequenceOf(b)));
            final List<String> state = new ArrayList<>(lines(whole.state));
            state.sort(null);
            checks.add(compare("union", records, result.unionRecords(), state, result.unionStateLinesSorted()));
        }
        return checks;
    }

    private record Oracle(List<String> records, String state)
    {
    }

    private static Oracle oracle(final ChainSpec chain, final PacketSource traffic) throws IOException
    {
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(chain); PacketSource source = traffic)
        {
            final StringBuilder line = new StringBuilder(256);
            oracle.run(source, (record, buffer, packet) ->
            {
                line.setLength(0);
                records.add(record.format(line, oracle.runtime(), packet).toString());
            });
            final StringWriter state = new StringWriter();
            oracle.writeState(state);
            return new Oracle(records, state.toString());
        }
    }

    private static Check compare(final String what, final List<String> oracleRecords, final List<String> flinkRecords,
        final List<String> oracleState, final List<String> flinkState)
    {
        final int n = Math.max(oracleRecords.size(), flinkRecords.size());
        for (int r = 0; r < n; r++)
        {
            final String o = r < oracleRecords.size() ? oracleRecords.get(r) : "(none)";
            final String f = r < flinkRecords.size() ? flinkRecords.get(r) : "(none)";
            if (!o.equals(f))
            {
                return new Check(what, oracleRecords.size(), false, "record " + r + ": oracle: " + o + " / flink: " + f);
            }
        }
        final int m = Math.max(oracleState.size(), flinkState.size());
        for (int s = 0; s < m; s++)
        {
            final String o = s < oracleState.size() ? oracleState.get(s) : "(none)";
            final String f = s < flinkState.size() ? flinkState.get(s) : "(none)";
            if (!o.equals(f))
            {
                return new Check(what, oracleRecords.size(), false, "state line " + s + ": oracle: " + o + " / flink: " + f);
            }
        }
        return new Check(what, oracleRecords.size(), true, null);
    }

    private static long sequenceOf(final String record)
    {
        return Long.parseLong(record.substring(0, record.indexOf(' ')));
    }

    private static List<String> lines(final String dump)
    {
        return dump.isEmpty() ? List.of() : Arrays.asList(dump.split("\n"));
    }
}
