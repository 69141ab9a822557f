package io.transnfv.engine.fault;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FaultLogTest
{
    @Test
    void shouldKeepTheFirstThrowsStackTraceWithItsSuppressedAndItsCausesAsText()
    {
        final FaultLog log = new FaultLog(List.of("fw"));
        final IllegalStateException cause = new IllegalStateException("the table said no");
        final RuntimeException thrown = new RuntimeException("pre-process failed", cause);
        thrown.addSuppressed(new IllegalArgumentException("while closing"));
        cause.initCause(thrown); // a cycle, which the text must not follow forever

        log.record(0, FaultLog.Callback.PRE_PROCESS, 7, thrown);
        log.record(0, FaultLog.Callback.PRE_PROCESS, 9, new RuntimeException("pre-process failed"));

        final List<FaultLog.FirstThrow> firsts = log.firstThrows();
        assertEquals(1, firsts.size());
        assertEquals(7, firsts.get(0).fault().firstSequence());
        final String trace = firsts.get(0).stackTrace();
        assertTrue(trace.startsWith("java.lang.RuntimeException: pre-process failed" + System.lineSeparator() + "\tat "
            + FaultLogTest.class.getName()), trace);
        assertTrue(trace.contains("Suppressed: java.lang.IllegalArgumentException: while closing"), trace);
        assertTrue(trace.contains("Caused by: java.lang.IllegalStateException: the table said no"), trace);
        assertTrue(trace.contains("Caused by: [CIRCULAR REFERENCE: java.lang.RuntimeException: pre-process failed]"), trace);
    }
}
