package io.transnfv.cli.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.transnfv.engine.chain.HttpAddress;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP control plane of one run, on Netty: {@code GET /metrics}, {@code GET /status},
 * {@code GET /state/<vnf>/<table>?key=KEY}, {@code GET /flows?tuple=TUPLE}, {@code GET /events} and
 * {@code POST /stop} (see
 * {@code docs/operations.md}).
 *
 * <pre>
 *  client ──► transnfv-http (one event loop thread, never an engine thread)
 *              HttpServerCodec ─► aggregator ─► keep-alive ─► {@link ControlHandler} ─► {@link PrometheusText}
 *                                                              │        (one per server, its buffer kept)
 *                                                              │ reads: published snapshots, atomic counts
 *                                                              │ writes: the run's stop request,
 *                                                              │         state lookups (CommandQueue, MPSC)
 *  engine threads ◄── SnapshotExchange / RunControl ───────────┘ (no lock, nothing on the packet path)
 * </pre>
 *
 * <p>Started before the run and closed after the command has written its outputs, so a scrape
 * after the end of the traffic still reads the final figures.
 */
public final class ControlServer implements AutoCloseable
{
    /** Largest request body accepted; larger ones get 413. */
    static final int MAX_REQUEST_BYTES = 64 * 1024;

    private final EventLoopGroup group;
    private final Channel channel;
    private final InetSocketAddress bound;
    private final AtomicInteger eventStreams;

    private ControlServer(final EventLoopGroup group, final Channel channel, final AtomicInteger eventStreams)
    {
        this.group = group;
        this.channel = channel;
        this.eventStreams = eventStreams;
        this.bound = (InetSocketAddress)channel.localAddress();
    }

    /**
     * Binds {@code address} and serves {@code view} until {@link #close()}.
     *
     * @param notices where the server tells the user what a request did (a stop).
     * @throws IllegalArgumentException with a fix when the address cannot be bound (in use, not local).
     */
    public static ControlServer start(final HttpAddress address, final RunView view, final PrintStream notices)
    {
        final InetSocketAddress socket = address.resolve();
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("transnfv-http", true),
            NioIoHandler.newFactory());
        final AtomicInteger eventStreams = new AtomicInteger();
        final RateWindow rates = new RateWindow(() -> view.executor().stats().packetsFinished(), System::nanoTime);
        // one renderer for every connection: they all run on the one event loop thread
        final PrometheusText metrics = new PrometheusText(view);
        final ChannelFuture bind = new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel ch)
                {
                    pipeline(ch, view, rates, metrics, notices, eventStreams);
                }
            })
            .bind(socket).awaitUninterruptibly();
        if (!bind.isSuccess())
        {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw new IllegalArgumentException("cannot listen on " + address.host() + ":" + address.port() + ": "
                + bind.cause().getMessage() + "; fix: pick another port (--http HOST:PORT, 0 for any free one) or an"
                + " address of this machine", bind.cause());
        }
        group.next().submit(() -> prepare(view, rates, metrics, eventStreams)).syncUninterruptibly();
        rates.sample();
        group.next().scheduleAtFixedRate(rates::sample, 1, 1, TimeUnit.SECONDS);
        return new ControlServer(group, bind.channel(), eventStreams);
    }

    private static void pipeline(final Channel ch, final RunView view, final RateWindow rates, final PrometheusText metrics,
        final PrintStream notices, final AtomicInteger eventStreams)
    {
        ch.pipeline()
            .addLast(new HttpServerCodec())
            .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
            .addLast(new HttpServerKeepAliveHandler())
            .addLast(new ControlHandler(view, rates, metrics, notices, eventStreams));
    }

    /**
     * Pays before the first packet what the first scrape would otherwise pay while the traffic
     * runs: loading and initialising the HTTP codec, the buffer allocator, the JSON mapper, the
     * live page and the exposition's classes (about a quarter of a second of CPU, measured), by
     * answering one request for an unknown route through an in-memory channel and rendering the
     * exposition once. Asks the engine for nothing and writes none of its state; on the event loop thread.
     */
    private static void prepare(final RunView view, final RateWindow rates, final PrometheusText metrics,
        final AtomicInteger eventStreams)
    {
        final EmbeddedChannel probe = new EmbeddedChannel();
        pipeline(probe, view, rates, metrics, new PrintStream(OutputStream.nullOutputStream()), eventStreams);
        probe.writeInbound(ByteBufAllocator.DEFAULT.buffer().writeBytes(
            "GET /.prepare HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        probe.finishAndReleaseAll();
        view.executor().snapshots().ifPresent(s -> metrics.render(s.latest(), view.executor().liveEntries(), System.nanoTime()));
    }

    /** @return the {@code GET /events} streams open now (the live pages that follow the run). */
    public int eventStreams()
    {
        return eventStreams.get();
    }

    /** @return the address the server listens on (with the port the system picked for port 0). */
    public InetSocketAddress address()
    {
        return bound;
    }

    /** @return the base URL, e.g. {@code http://127.0.0.1:9100}. */
    public String url()
    {
        final String host = bound.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort();
    }

    @Override
    public void close()
    {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
