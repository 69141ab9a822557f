package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.executor.TpgBatchExecutor;
import io.transnfv.engine.fault.RunFailedException;
import io.transnfv.engine.source.PacketSource;
import io.transnfv.engine.source.SourceException;
import io.transnfv.engine.thread.FailurePoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An engine thread that dies (killed through its {@link FailurePoint}) fails the run at once,
 * with a message naming it, instead of hanging it: a worker of the engine, the serial oracle's
 * loop, the ingress ring's reader. Each test has a timeout: a hang fails it.
 */
class EngineThreadDeathTest
{
    @Test
    @Timeout(60)
    void shouldFailTheEngineRunPromptlyWhenAWorkerThreadDies() throws Exception
    {
        final ChainSpec chain = TestChains.quotaThenRewrite();
        try (ChainExecutor executor = armed("worker:1000",
                () -> new BatchedChainExecutor(chain, TpgBatchExecutor::new, "tpg"));
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final RunFailedException failure = assertThrows(RunFailedException.class, () -> executor.run(source, null));
            assertTrue(failure.getMessage().contains("thread transnfv-worker-"), failure.getMessage());
            assertTrue(failure.getMessage().contains("died"), failure.getMessage());
            assertTrue(failure.getMessage().contains("fix:"), failure.getMessage());
        }
    }

    @Test
    @Timeout(60)
    void shouldFailTheSerialRunPromptlyWhenItsThreadDies() throws Exception
    {
        final ChainSpec chain = TestChains.quotaThenRewrite();
        try (ChainExecutor executor = armed("serial:1000", () -> new SerialChainExecutor(chain));
             PacketSource source = PacketSources.open(chain.settings().traffic()))
        {
            final RunFailedException failure = assertThrows(RunFailedException.class, () -> executor.run(source, null));
            assertTrue(failure.getMessage().contains("serial executor stopped"), failure.getMessage());
            assertTrue(failure.getMessage().contains("injected failure of the serial thread"), failure.getMessage());
        }
    }

    @Test
    @Timeout(60)
    void shouldFailTheReaderPromptlyWhenTheIngressThreadDies() throws Exception
    {
        final ChainSpec chain = TestChains.quotaThenRewrite();
        try (ChainExecutor executor = new SerialChainExecutor(chain);
             PacketSource source = armed("ingress:1000", () -> openWithIngressThread(chain)))
        {
            final SourceException failure = assertThrows(SourceException.class, () -> executor.run(source, null));
            assertTrue(failure.getMessage().contains("the ingress thread died"), failure.getMessage());
        }
    }

    private static PacketSource openWithIngressThread(final ChainSpec chain)
    {
        try
        {
            return PacketSources.openWithIngressThread(chain.settings().traffic());
        }
        catch (final SourceException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** @return what {@code create} makes while {@code point} is armed: the property is read at construction only. */
    private static <T> T armed(final String point, final Supplier<T> create)
    {
        System.setProperty(FailurePoint.PROPERTY, point);
        try
        {
            return create.get();
        }
        finally
        {
            System.clearProperty(FailurePoint.PROPERTY);
        }
    }
}
