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
    @Test
    void shouldStartReadyOnlyWithoutDependencies()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {0, 2}, 2);
        assertEquals(OperationStateMachine.READY, machine.state(0));
        assertEquals(OperationStateMachine.BLOCKED, machine.state(1));
    }

    @Test
    void shouldBecomeReadyWithoutAHandOverWhenNoUnitIsParkedAtIt()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {2}, 1);
        assertFalse(machine.resolveDependency(0));
        assertEquals(OperationStateMachine.BLOCKED, machine.state(0));
        assertFalse(machine.resolveDependency(0), "its unit has not reached it: the unit will find it READY");
        assertEquals(OperationStateMachine.READY, machine.state(0));
        assertFalse(machine.park(0), "a READY operation cannot be parked: the caller runs it");
    }

    @Test
    void shouldHandTheUnitBackWhenTheLastDependencyOfAParkedOperationResolves()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {2}, 1);
        assertTrue(machine.park(0));
        assertEquals(OperationStateMachine.PARKED, machine.state(0));
        assertFalse(machine.resolveDependency(0));
        assertTrue(machine.resolveDependency(0));
        assertEquals(OperationStateMachine.READY, machine.state(0));
    }

    @Test
    void shouldRecordTheOutcome()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {0, 1}, 2);
        machine.complete(0, OperationStateMachine.ABORTED);
        assertEquals(OperationStateMachine.ABORTED, machine.state(0));
        assertThrows(IllegalArgumentException.class, () -> machine.complete(1, OperationStateMachine.READY));
    }

    @Test
    void shouldRejectMoreResolutionsThanDependencies()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {1}, 1);
        assertFalse(machine.resolveDependency(0));
        assertThrows(IllegalStateException.class, () -> machine.resolveDependency(0));
    }

    @Test
    void shouldResumeAParkedUnitExactlyOnceUnderContention() throws InterruptedException
    {
        for (int round = 0; round < 200; round++)
        {
            final int perThread = 200;
            final Thread[] threads = new Thread[3];
            final OperationStateMachine machine = new OperationStateMachine();
            machine.reset(new int[] {perThread * threads.length}, 1);
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
            assertEquals(parked ? 1 : 0, resumed.get(), "the parker runs it, or exactly one resolver resumes it");
            assertEquals(OperationStateMachine.READY, machine.state(0));
            assertEquals(0, machine.pending(0));
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
        graph.beginBatch(log);
        graph.buildShards(0, 1);
        graph.finishBuild();
        machine.beginBatch(log.operationCount(), false);
        graph.sealChunk(0, machine, false);
        assertEquals(OperationStateMachine.READY, machine.state(0));
        assertTrue(machine.park(1));
        assertTrue(machine.resolveDependency(1));
        assertEquals(OperationStateMachine.READY, machine.state(1));
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
