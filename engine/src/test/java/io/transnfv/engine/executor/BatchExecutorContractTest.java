package io.transnfv.engine.executor;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.tpg.txn.SerialApplier;
import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The acceptance test of every {@link BatchExecutor}: seeded random batches must give, for
 * every transaction, the abort reason and (when committed) every operation's before, after
 * and chosen that {@link SerialApplier} gives applying the transactions in (timestamp,
 * sequence) order, and the same final committed state. One thin subclass per configuration.
 */
abstract class BatchExecutorContractTest
{
    private static final int DEFAULT_SEEDS = 200;
    private static final long STRESS_SEED_OFFSET = 1_000_000L;

    private BatchExecutor executor;
    private SerialOracleCheck check;

    /** @return a new executor under test. */
    protected abstract BatchExecutor newExecutor();

    /** @return the configuration, printed with every failure. */
    protected abstract String config();

    @BeforeEach
    void startExecutor()
    {
        executor = newExecutor();
        check = new SerialOracleCheck(executor, config());
    }

    @AfterEach
    void closeExecutor()
    {
        executor.close();
    }

    @Test
    void shouldMatchSerialOracleOnRandomBatches()
    {
        final int seeds = Math.min(DEFAULT_SEEDS, Integer.getInteger("transnfv.property.seeds", DEFAULT_SEEDS));
        for (long seed = 0; seed < seeds; seed++)
        {
            check.checkSeed(seed, 10_000);
        }
    }

    @Test
    @Tag("stress")
    void shouldMatchSerialOracleOnThousandsOfSeeds()
    {
        final int seeds = Integer.getInteger("transnfv.property.seeds", 5_000);
        for (long seed = 0; seed < seeds; seed++)
        {
            check.checkSeed(STRESS_SEED_OFFSET + seed, 10_000);
        }
    }

    @Test
    void shouldMatchSerialOracleWhenEveryOperationHitsOneKey()
    {
        for (long seed = 0; seed < 20; seed++)
        {
            check.checkWorkload(new RandomWorkload(2_000_000L + seed, 3_000, 1));
        }
    }

    @Test
    void shouldApplyFireAndForgetUpdatesInSerialOrderByTheBatchEnd()
    {
        for (long seed = 0; seed < 40; seed++)
        {
            check.checkWorkload(new RandomWorkload(4_000_000L + seed, 3_000, 0, true));
        }
    }

    @Test
    void shouldGiveStaleReadsTheBatchStartValuesAsTheBatchedOracleDoes()
    {
        for (long seed = 0; seed < 40; seed++)
        {
            check.checkWorkload(new RandomWorkload(5_000_000L + seed, 3_000, 0, false, true));
        }
    }

    @Test
    void shouldMatchSerialOracleWhenTheAdditiveTableIsClosedToNewKeys()
    {
        int removed = 0;
        for (long seed = 0; seed < 60; seed++)
        {
            removed += check.checkWorkload(new RandomWorkload(3_000_000L + seed, 3_000), true);
        }
        assertTrue(removed > 0, config() + ": some adds must take a key of the closed table back to 0 (then it is still taken back)");
    }

    @Test
    void shouldKeepCommittedStateUnchangedForAnEmptyBatch()
    {
        final RandomWorkload workload = new RandomWorkload(7, 10);
        final MultiVersionStateTable state = new MultiVersionStateTable(workload.catalog);
        workload.prefill(state);
        final String before = SerialOracleCheck.dump(workload.catalog, state);
        executor.execute(new TransactionLog(), state);
        assertEquals(before, SerialOracleCheck.dump(workload.catalog, state), config());
    }
}

