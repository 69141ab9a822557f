package io.transnfv.tpg.graph;

import org.junit.jupiter.api.Test;

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
    void shouldBecomeReadyWhenTheLastDependencyResolves()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {2}, 1);
        assertFalse(machine.resolveDependency(0));
        assertEquals(OperationStateMachine.BLOCKED, machine.state(0));
        assertTrue(machine.resolveDependency(0));
        assertEquals(OperationStateMachine.READY, machine.state(0));
    }

    @Test
    void shouldCompleteOnlyFromReadyAndOnlyOnce()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {0, 1}, 2);
        assertFalse(machine.complete(1, OperationStateMachine.EXECUTED), "BLOCKED cannot complete");
        assertTrue(machine.complete(0, OperationStateMachine.ABORTED));
        assertFalse(machine.complete(0, OperationStateMachine.EXECUTED));
        assertEquals(OperationStateMachine.ABORTED, machine.state(0));
    }

    @Test
    void shouldRejectMoreResolutionsThanDependencies()
    {
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {1}, 1);
        assertTrue(machine.resolveDependency(0));
        assertThrows(IllegalStateException.class, () -> machine.resolveDependency(0));
    }

    @Test
    void shouldHandTheOperationToExactlyOneResolverUnderContention() throws InterruptedException
    {
        final int perThread = 50_000;
        final Thread[] threads = new Thread[4];
        final OperationStateMachine machine = new OperationStateMachine();
        machine.reset(new int[] {perThread * threads.length}, 1);
        final AtomicInteger winners = new AtomicInteger();
        for (int i = 0; i < threads.length; i++)
        {
            threads[i] = new Thread(() ->
            {
                for (int j = 0; j < perThread; j++)
                {
                    if (machine.resolveDependency(0))
                    {
                        winners.incrementAndGet();
                    }
                }
            });
            threads[i].start();
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(1, winners.get());
        assertEquals(OperationStateMachine.READY, machine.state(0));
        assertEquals(0, machine.pending(0));
    }
}
