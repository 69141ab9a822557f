package io.transnfv.dpdk;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.engine.thread.FailurePoint;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.transnfv.dpdk.DpdkTestSupport.assumeDpdk;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DPDK receive thread dying (an injected failure through its {@link FailurePoint}) fails the
 * run with a message that says so, promptly; it must never look like a port that went quiet, which
 * would end the run normally with packets missing.
 */
class DpdkReceiverDeathTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void requireDpdk()
    {
        assumeDpdk();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailTheRunWhenTheReceiveThreadDies() throws Exception
    {
        final ChainSpec chain = DpdkTestSupport.natLbTd();
        final Path trace = DpdkTestSupport.trace("WebattackXSS.pcap");
        final DpdkFrontEnd dpdk;
        System.setProperty(FailurePoint.PROPERTY, "dpdk-rx:20");
        try
        {
            dpdk = DpdkFrontEnd.open(DpdkTestSupport.pcapVdev("receiver_death", trace, dir.resolve("out.pcap"), chain));
        }
        finally
        {
            System.clearProperty(FailurePoint.PROPERTY);
        }
        // the engine closes first: after a failed run its workers may still be finishing a phase over
        // mbufs, which must not be freed (with the port) under them
        try (DpdkSource source = dpdk.source(); ChainExecutor engine = DpdkTestSupport.engine(chain))
        {
            final Exception failed = assertThrows(Exception.class, () -> engine.run(source, dpdk.sink()));
            assertTrue(String.valueOf(failed).contains("receive thread") || String.valueOf(failed.getCause()).contains("receive thread"),
                () -> "the failure names the receive thread: " + failed);
        }
    }
}
