package io.transnfv.tpg.graph;

import io.transnfv.tpg.txn.TransactionLog;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OperationStateMachineTest
{
    private static OperationStateMachine machine(final boolean singleOperationUnits, final int... counts)
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(counts, counts.length);
        machine.singleOperationUnits(singleOperationUnits);
        return machine;
    }

    @Test
    void shouldStartReadyOnlyWithoutDependencies()
    {
        final OperationStateMachine machine = machine(true, 0, 2);
        assertTrue(machine.isReady(0));
        assertFalse(machine.isReady(1));
        assertEquals(2, machine.pending(1));
    }

    @Test
    void shouldHandOutASingleOperationUnitWhenItsLastDependencyResolves()
    {
        final OperationStateMachine machine = machine(true, 2);
        assertFalse(machine.resolveDependency(0));
        assertTrue(machine.resolveDependency(0), "its own unit: the last resolver hands it out");
        assertTrue(machine.isReady(0));
    }

    @Test
    void shouldBecomeReadyWithoutAHandOverWhenNoUnitIsParkedAtIt()
    {
        final OperationStateMachine machine = machine(false, 2);
        assertFalse(machine.resolveDependency(0));
        assertFalse(machine.resolveDependency(0), "its unit has not reached it: the unit will find it ready");
        assertTrue(machine.isReady(0));
        assertFalse(machine.park(0), "a ready operation cannot be parked: the caller runs it");
    }

    @Test
    void shouldHandTheUnitBackWhenTheLastDependencyOfAParkedOperationResolves()
    {
        final OperationStateMachine machine = machine(false, 2);
        assertTrue(machine.park(0));
        assertTrue(machine.isParked(0));
        assertFalse(machine.resolveDependency(0));
        assertTrue(machine.resolveDependency(0));
        assertTrue(machine.isReady(0));
    }

    @Test
    void shouldRejectMoreResolutionsThanDependencies()
    {
        final OperationStateMachine single = machine(true, 1);
        single.resolveDependency(0);
        assertThrows(IllegalStateException.class, () -> single.resolveDependency(0));
        final OperationStateMachine parked = machine(false, 1);
        assertTrue(parked.park(0));
        parked.resolveDependency(0);
        assertThrows(IllegalStateException.class, () -> parked.resolveDependency(0));
    }

    @Test
    void shouldResumeAParkedUnitExactlyOnceUnderContention() throws InterruptedException
    {
        for (int round = 0; round < 200; round++)
        {
            final int perThread = 200;
            final Thread[] threads = new Thread[3];
            final OperationStateMachine machine = machine(false, perThread * threads.length);
            final AtomicInteger resumed = new AtomicInteger();
            final CountDownLatch start = new CountDownLatch(1);
            for (int i = 0; i < threads.length; i++)
            {
                threads[i] = new Thread(() ->
                {
                    awaitQuietly(start);
                    for (int j = 0; j < perThread; j++)
                    {
                        if (machine.resolveDependency(0))
                        {
                            resumed.incrementAndGet();
                        }
                    }
                });
                threads[i].start();
            }
            start.countDown();
            final boolean parked = machine.park(0);
            for (final Thread thread : threads)
            {
                thread.join();
            }
            // the parker wins: the last resolver resumes the unit; the resolvers win: the parker runs it
            assertEquals(parked ? 1 : 0, resumed.get(), "round " + round);
            assertTrue(machine.isReady(0));
        }
    }

    @Test
    void shouldUsePlainAccessesForOneExecutorWithTheSameOutcome()
    {
        final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
        final TransactionLog log = new TransactionLog();
        log.begin(1, 0, null);
        log.write(0, 1, 1);
        log.write(0, 2, 2);
        log.end();
        log.begin(2, 1, null);
        log.write(0, 1, 3);
        log.end();
        final OperationStateMachine machine = new OperationStateMachine();
        graph.buildAndSeal(log, machine);
        machine.concurrent(false);
        machine.singleOperationUnits(false);
        assertTrue(machine.isReady(0));
        assertTrue(machine.park(1), "op 1 waits for op 0 (statement order)");
        assertTrue(machine.resolveDependency(1));
        assertTrue(machine.isReady(1));
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
