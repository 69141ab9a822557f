package io.transnfv.dpdk;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;

/**
 * A DPDK port wired to the engine: a {@link DpdkSource} to give the executor and a
 * {@link DpdkSink} to give it as (part of) its listener, around the ingress ring that the
 * receiver thread fills.
 *
 * <pre>
 *  try (DpdkFrontEnd dpdk = DpdkFrontEnd.open(config))
 *  {
 *      executor.run(dpdk.source(), dpdk.sink());
 *  }
 * </pre>
 *
 * <p>Opened and closed by the engine's thread. {@link #close()} stops the receiver,
 * applies pending verdicts and closes the port; a pcap vdev's output file is complete
 * only after it.
 */
public final class DpdkFrontEnd implements AutoCloseable
{
    private final DpdkPort port;
    private final RingBuffer<RxEvent> ring;
    private final DpdkReceiver receiver;
    private final DpdkSink sink;
    private final DpdkSource source;
    private final Thread receiverThread;
    private boolean closed;

    private DpdkFrontEnd(final DpdkPort port)
    {
        this.port = port;
        final Sequence released = new Sequence(-1);
        this.ring = ingressRing(port.config().ringPackets(), released);
        this.receiver = new DpdkReceiver(port, ring);
        this.sink = new DpdkSink(port, ring, released);
        this.source = new DpdkSource(this, ring, receiver, sink);
        this.receiverThread = new Thread(receiver, "transnfv-dpdk-rx-" + port.id());
        receiverThread.setDaemon(true);
    }

    /**
     * The ingress ring: the receiver its only producer, {@code released} (moved by the sink
     * once verdicts are applied) its only gating sequence. Polled, never waited on
     * ({@link PollOnlyWaitStrategy}).
     */
    static RingBuffer<RxEvent> ingressRing(final int packets, final Sequence released)
    {
        final RingBuffer<RxEvent> ring = RingBuffer.createSingleProducer(RxEvent::new, packets, PollOnlyWaitStrategy.INSTANCE);
        ring.addGatingSequences(released);
        return ring;
    }

    /**
     * Open the port and start the receiver thread.
     *
     * @param config the settings.
     * @return the running front end.
     * @throws DpdkException if DPDK is unavailable or the port cannot be set up.
     */
    public static DpdkFrontEnd open(final DpdkConfig config) throws DpdkException
    {
        final DpdkPort port = DpdkPort.open(config);
        final DpdkFrontEnd frontEnd = new DpdkFrontEnd(port);
        frontEnd.receiverThread.start();
        return frontEnd;
    }

    /** @return the source to run the chain over. */
    public DpdkSource source()
    {
        return source;
    }

    /** @return the listener that applies verdicts; call it for every packet, in arrival order. */
    public DpdkSink sink()
    {
        return sink;
    }

    /** @return the port. */
    public DpdkPort port()
    {
        return port;
    }

    /**
     * @return e.g. {@code dpdk port 0 (net_pcap), 1 rx queue(s), bursts of 32, ring 4096,
     *         pool 6656 mbufs of 2048 B, rx held back by the pool 0 times, frames copied 0 in / 0 out}:
     *         the held-back count is {@link NativeCounters#rxHeldBackPoolLow()}, the copy counts
     *         the frames that did not go through the engine in place (see {@link #framesCopiedIn()}), so far;
     *         once IP fragments were held, followed by {@code , fragments held 3 (2 sent from a copy)}.
     */
    public String describe()
    {
        final DpdkConfig c = port.config();
        return "dpdk port " + port.id() + " (" + port.driver() + "), " + c.rxQueues() + " rx queue(s), bursts of "
            + c.burstPackets() + ", ring " + c.ringPackets() + ", pool " + c.mbufs() + " mbufs of " + c.dataRoomBytes()
            + " B, rx held back by the pool " + port.counters().rxHeldBackPoolLow() + " times, frames copied "
            + framesCopiedIn() + " in / " + framesCopiedOut() + " out"
            + (sink.heldReleased() == 0 ? "" : ", fragments held " + sink.heldReleased() + " (" + sink.heldForwarded() + " sent from a copy)");
    }

    /**
     * @return frames copied from their mbufs into the engine's buffers (those that arrived as
     *         chains of mbufs); every other frame is seen in place. Engine thread.
     */
    public long framesCopiedIn()
    {
        return source.framesCopied();
    }

    /** @return forwarded frames copied back into their mbufs (those copied in). Engine thread. */
    public long framesCopiedOut()
    {
        return sink.framesCopied();
    }

    @Override
    public void close() throws DpdkException
    {
        if (closed)
        {
            return;
        }
        closed = true;
        receiver.stop();
        try
        {
            receiverThread.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        try
        {
            sink.flush();
            port.refreshCounters();
        }
        finally
        {
            port.close();
        }
    }
}
