package io.transnfv.engine.executor;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The contract test over the whole scheduling space: every strategy {@link TpgBatchExecutor}
 * accepts (the 12 static policies, {@code adaptive}, {@code adaptive-feedback}) on 1, 2, 4 and
 * 8 executor threads must equal the serial oracle. The default suite runs
 * {@value #DEFAULT_SEEDS} seeds per point (the first seeds of the core's contract test) plus
 * single-key batches; the {@code stress} tag runs the core's 200 seeds, and
 * {@code -Dtransnfv.property.seeds=5000} as many as asked.
 */
class SchedulingSpaceContractTest
{
    private static final int DEFAULT_SEEDS = 50;
    private static final int[] THREADS = {1, 2, 4, 8};

    @TestFactory
    List<DynamicTest> shouldMatchSerialOracleForEveryStrategyAndThreadCount()
    {
        return points(DEFAULT_SEEDS, 0L, 4);
    }

    @TestFactory
    @Tag("stress")
    List<DynamicTest> shouldMatchSerialOracleForEveryStrategyOnThousandsOfSeeds()
    {
        return points(Integer.getInteger("transnfv.property.seeds", 200), 1_000_000L, 20);
    }

    private static List<DynamicTest> points(final int seeds, final long offset, final int singleKeySeeds)
    {
        final List<DynamicTest> tests = new ArrayList<>();
        for (final String strategy : TpgBatchExecutor.strategyNames())
        {
            for (final int threads : THREADS)
            {
                final String config = "strategy=" + strategy + " threads=" + threads;
                tests.add(DynamicTest.dynamicTest(config, () ->
                {
                    try (TpgBatchExecutor executor = TpgBatchExecutor.create(threads, strategy))
                    {
                        final SerialOracleCheck check = new SerialOracleCheck(executor, config);
                        for (long seed = 0; seed < seeds; seed++)
                        {
                            check.checkSeed(offset + seed, 10_000);
                        }
                        for (long seed = 0; seed < singleKeySeeds; seed++)
                        {
                            check.checkWorkload(new RandomWorkload(2_000_000L + offset + seed, 3_000, 1));
                        }
                    }
                }));
            }
        }
        return tests;
    }
}
