package io.transnfv.cli.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.transnfv.chains.LiveParams;
import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.control.CommandQueue;
import io.transnfv.engine.control.FlowProbe;
import io.transnfv.engine.control.FlowQuery;
import io.transnfv.engine.control.PageQuery;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.control.StateCommand;
import io.transnfv.engine.control.RunControl;
import io.transnfv.engine.control.StateQuery;
import io.transnfv.engine.report.RunSnapshot;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.report.SnapshotExchange;
import io.transnfv.scheduler.SchedulingPolicy;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.PackedField;
import io.transnfv.vnf.api.PackedLayout;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.instance.KeyFormat;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.packet.FlowTuple;
import io.transnfv.vnf.packet.PacketFlyweight;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Answers one connection's requests, on the control plane's event loop. State lookups go to
 * the engine through its {@link CommandQueue} and are answered between two batches; parameter
 * changes are checked and prepared here and applied by the engine at a packet position with no
 * batch in flight ({@link ParamChanges}). Figures come from a
 * snapshot the engine copies when asked ({@link SnapshotExchange}): the handler asks, then
 * looks again every millisecond on the event loop (never blocking it) until the engine has
 * answered or {@link #SNAPSHOT_WAIT_NS} has passed, when the latest snapshot is served with its
 * age. Errors are JSON: {@code {"error": ..., "fix": ...}} with a 4xx status.
 */
final class ControlHandler extends SimpleChannelInboundHandler<FullHttpRequest>
{
    /** How long a request waits for the engine's next batch boundary before it takes the latest figures. */
    static final long SNAPSHOT_WAIT_NS = TimeUnit.SECONDS.toNanos(1);

    private static final String ROUTES = "GET / (the live page), GET /metrics, GET /status, GET /state/<vnf>/<table>?key=KEY,"
        + " GET /state/<vnf>/<table>?limit=N&after=NEXT, GET /flows?tuple=TUPLE, GET /events, POST /params/<vnf>, POST /stop";
    /** The live page: one self-contained file in the jar, read once. */
    private static final byte[] PAGE = readPage();
    private static final String STATE = "/state/";
    private static final String PARAMS = "/params/";
    /** How long a parameter change's request waits for the change to take effect before it answers 202. */
    static final long CHANGE_WAIT_NS = TimeUnit.SECONDS.toNanos(2);
    /** How often /events sends a snapshot: the live page's refresh. */
    static final long EVENT_INTERVAL_MS = 1000;
    private static final Set<String> PARAMETERS = Set.of("key", "limit", "after");
    private static final ObjectMapper JSON = JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build();
    /** One line per event: a server-sent event's data may not hold a line break. */
    private static final ObjectWriter COMPACT = JSON.writer().without(SerializationFeature.INDENT_OUTPUT);

    private final RunView view;
    private final RateWindow rates;
    private final PrometheusText metrics;
    private final PrintStream notices;
    private final AtomicInteger eventStreams;

    /** @param metrics the control plane's one renderer, shared by its connections' handlers on the one event loop. */
    ControlHandler(final RunView view, final RateWindow rates, final PrometheusText metrics, final PrintStream notices,
        final AtomicInteger eventStreams)
    {
        this.view = view;
        this.rates = rates;
        this.metrics = metrics;
        this.notices = notices;
        this.eventStreams = eventStreams;
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        final boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure())
        {
            error(ctx, false, HttpResponseStatus.BAD_REQUEST, "malformed request: " + request.decoderResult().cause().getMessage(),
                "send an HTTP/1.1 request, e.g. curl http://HOST:PORT/status");
            return;
        }
        final QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        final String path = uri.path();
        final HttpMethod method = request.method();
        final String allowed = path.startsWith(STATE) ? "GET" : path.startsWith(PARAMS) ? "POST" : switch (path)
        {
            case "/", "/metrics", "/status", "/flows", "/events" -> "GET";
            case "/stop" -> "POST";
            default -> null;
        };
        if (allowed == null)
        {
            error(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "no route " + method + " " + path, "the routes are " + ROUTES);
            return;
        }
        final boolean head = method.equals(HttpMethod.HEAD) && "GET".equals(allowed);
        if (!method.name().equals(allowed) && !head)
        {
            final FullHttpResponse response = json(HttpResponseStatus.METHOD_NOT_ALLOWED, problem(
                path + " takes " + allowed + ", not " + method, "send " + allowed + " " + path));
            response.headers().set(HttpHeaderNames.ALLOW, "GET".equals(allowed) ? "GET, HEAD" : allowed);
            send(ctx, keepAlive, response);
            return;
        }
        if (path.startsWith(STATE))
        {
            state(ctx, keepAlive, path, uri);
            return;
        }
        if ("/flows".equals(path))
        {
            flows(ctx, keepAlive, uri);
            return;
        }
        if (path.startsWith(PARAMS) && uri.parameters().isEmpty())
        {
            params(ctx, keepAlive, path.substring(PARAMS.length()), request.content().toString(StandardCharsets.UTF_8));
            return;
        }
        if (!uri.parameters().isEmpty())
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, path + " takes no parameters, got '"
                + uri.parameters().keySet().iterator().next() + "'", "send " + allowed + " " + path + " without a query string");
            return;
        }
        switch (path)
        {
            case "/metrics" -> withSnapshot(ctx, snapshot -> send(ctx, keepAlive, head, exposition(ctx, snapshot)));
            case "/status" -> withSnapshot(ctx, snapshot -> send(ctx, keepAlive, head, json(HttpResponseStatus.OK, status(snapshot))));
            case "/" -> send(ctx, keepAlive, head, pageResponse());
            case "/events" -> events(ctx, head);
            default -> stop(ctx, keepAlive);
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        // a client that went away, or a bug here: the run goes on either way
        ctx.close();
    }

    /**
     * GET /state/&lt;vnf&gt;/&lt;table&gt;?key=KEY: one key's committed value, looked up by the engine
     * where no batch is in flight ({@link CommandQueue}), so it is the state after a whole batch.
     */
    private void state(final ChannelHandlerContext ctx, final boolean keepAlive, final String path, final QueryStringDecoder uri)
    {
        final String[] parts = path.substring(STATE.length()).split("/", -1);
        final TableCatalog catalog = view.executor().runtime().catalog();
        final String name = parts.length == 2 ? parts[0] + "." + parts[1] : null;
        int table = -1;
        for (int t = 0; t < catalog.size() && name != null; t++)
        {
            if (catalog.qualifiedName(t).equals(name))
            {
                table = t;
            }
        }
        if (table < 0)
        {
            error(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "no table " + (name == null ? path : "'" + name + "'")
                + " in this chain", "GET /state/<vnf>/<table>?key=KEY with a table of " + String.join(", ", view.tableNames()));
            return;
        }
        final KeyKind kind = catalog.spec(table).keyKind();
        final PackedLayout layout = catalog.spec(table).packed();
        final List<String> keys = uri.parameters().get("key");
        final String other = uri.parameters().keySet().stream().filter(k -> !PARAMETERS.contains(k)).findFirst().orElse(null);
        final boolean paged = uri.parameters().containsKey("limit") || uri.parameters().containsKey("after");
        if (other != null || (keys != null && (keys.size() != 1 || paged)))
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, other != null ? path + " takes 'key', or 'limit' and 'after',"
                + " got '" + other + "'" : keys.size() != 1 ? path + " takes one ?key=" : path + " takes either ?key= (one key)"
                + " or ?limit=&after= (a page), not both", "add ?key= with " + KeyFormat.expected(kind)
                + ", or leave it out for a page of entries (?limit=N&after=NEXT)");
            return;
        }
        if (keys == null)
        {
            page(ctx, keepAlive, path, uri, table, name, kind, layout);
            return;
        }
        final long key;
        try
        {
            key = KeyFormat.parse(kind, keys.get(0));
        }
        catch (final IllegalArgumentException e)
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, e.getMessage(), "write the key as the state dump (--state)"
                + " writes it");
            return;
        }
        final StateQuery query = new StateQuery(table, key);
        final String tableName = name;
        ask(ctx, keepAlive, query, () ->
        {
            final ObjectNode body = JSON.createObjectNode();
            body.put("table", tableName);
            body.put("key", KeyFormat.format(kind, key));
            body.put("value", query.value());
            fields(body, layout, query.value());
            answeredAt(body, query);
            send(ctx, keepAlive, json(HttpResponseStatus.OK, body));
        });
    }

    /**
     * GET /state/&lt;vnf&gt;/&lt;table&gt;[?limit=N&amp;after=NEXT]: one page of a table's entries, read
     * by the engine where no batch is in flight ({@link PageQuery}), never the whole table.
     */
    private void page(final ChannelHandlerContext ctx, final boolean keepAlive, final String path, final QueryStringDecoder uri,
        final int table, final String tableName, final KeyKind kind, final PackedLayout layout)
    {
        final List<String> limits = uri.parameters().get("limit");
        final List<String> afters = uri.parameters().get("after");
        if ((limits != null && limits.size() != 1) || (afters != null && afters.size() != 1))
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, path + " takes one ?limit= and one ?after= at most",
                "send ?limit=N&after=NEXT with the previous page's 'next'");
            return;
        }
        final PageQuery query;
        try
        {
            final int limit = limits == null ? PageQuery.DEFAULT_LIMIT : parseLimit(limits.get(0));
            query = new PageQuery(table, afters == null ? null : afters.get(0), limit);
        }
        catch (final IllegalArgumentException e)
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, e.getMessage(), "send ?limit= from 1 to " + PageQuery.MAX_LIMIT
                + " (default " + PageQuery.DEFAULT_LIMIT + ") and ?after= with the previous page's 'next', or no ?after= for"
                + " the first page");
            return;
        }
        ask(ctx, keepAlive, query, () ->
        {
            if (query.error() != null)
            {
                error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, query.error(), "send ?after= with the previous page's"
                    + " 'next', or no ?after= for the first page");
                return;
            }
            final ObjectNode body = JSON.createObjectNode();
            body.put("table", tableName);
            answeredAt(body, query);
            body.put("order", query.order());
            body.put("limit", query.limit());
            final ArrayNode entries = body.putArray("entries");
            for (int i = 0; i < query.page().size(); i++)
            {
                final ObjectNode entry = entries.addObject();
                entry.put("key", KeyFormat.format(kind, query.page().key(i)));
                entry.put("value", query.page().value(i));
                fields(entry, layout, query.page().value(i));
            }
            if (query.next() != null)
            {
                body.put("next", query.next());
            }
            send(ctx, keepAlive, json(HttpResponseStatus.OK, body));
        });
    }

    /** Adds a packed record's fields ({@code "fields": {"seen": .., ...}}) beside its value; nothing for other tables. */
    private static void fields(final ObjectNode entry, final PackedLayout layout, final long value)
    {
        if (layout != null)
        {
            final ObjectNode fields = entry.putObject("fields");
            for (final PackedField field : layout.fields())
            {
                fields.put(field.name(), field.get(value));
            }
        }
    }

    private static int parseLimit(final String text)
    {
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("'" + text + "' is not a page size (a whole number from 1 to "
                + PageQuery.MAX_LIMIT + ")", e);
        }
    }

    /**
     * GET /flows?tuple=TUPLE: every entry the flow touches in every VNF of the chain, the keys
     * derived by the VNFs' own pre-processing ({@link FlowProbe}), all read at one point between
     * two batches.
     */
    private void flows(final ChannelHandlerContext ctx, final boolean keepAlive, final QueryStringDecoder uri)
    {
        final List<String> tuples = uri.parameters().get("tuple");
        final String other = uri.parameters().keySet().stream().filter(k -> !"tuple".equals(k)).findFirst().orElse(null);
        if (other != null || tuples == null || tuples.size() != 1)
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, other != null ? "/flows takes only 'tuple', got '" + other + "'"
                : "/flows needs one ?tuple=", "add ?tuple= with " + FlowTuple.SYNTAX);
            return;
        }
        final FlowTuple tuple;
        try
        {
            tuple = FlowTuple.parse(tuples.get(0));
        }
        catch (final IllegalArgumentException e)
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, e.getMessage(), "write the tuple as " + FlowTuple.SYNTAX);
            return;
        }
        final ChainRuntime runtime = view.executor().runtime();
        final byte[] frame = tuple.frame();
        final FlowProbe.Result probe = FlowProbe.probe(runtime, new PacketFlyweight().wrap(frame, 0, frame.length));
        final FlowQuery query = new FlowQuery(probe.accesses().toArray(new FlowProbe.Access[0]));
        ask(ctx, keepAlive, query, () ->
        {
            final TableCatalog catalog = runtime.catalog();
            final ObjectNode body = JSON.createObjectNode();
            body.put("tuple", tuple.toString());
            answeredAt(body, query);
            final ArrayNode vnfs = body.putArray("vnfs");
            for (final int v : runtime.topologicalOrder())
            {
                final ObjectNode vnf = vnfs.addObject();
                vnf.put("vnf", runtime.instance(v).name());
                vnf.put("type", runtime.instance(v).type());
                final ArrayNode entries = vnf.putArray("entries");
                for (int i = 0; i < query.size(); i++)
                {
                    final FlowProbe.Access access = query.access(i);
                    if (access.vnf() != v)
                    {
                        continue;
                    }
                    final ObjectNode entry = entries.addObject();
                    entry.put("table", catalog.qualifiedName(access.table()));
                    entry.put("key", KeyFormat.format(catalog.spec(access.table()).keyKind(), access.key()));
                    entry.put("access", access.access());
                    entry.put("value", query.value(i));
                    entry.put("present", query.value(i) != catalog.spec(access.table()).initialValue());
                }
                probe.failures().stream().filter(f -> f.vnf() == v).findFirst()
                    .ifPresent(f -> vnf.put("error", "its pre-processing threw on this flow's packet: " + f.message()));
            }
            send(ctx, keepAlive, json(HttpResponseStatus.OK, body));
        });
    }

    /**
     * POST /params/&lt;vnf&gt; with a JSON object of new values: checked as the chain validator checks
     * {@code params:} ({@link LiveParams}), prepared by the VNF, and applied by the engine at the
     * next packet position with no batch in flight ({@link ParamChanges}). Answers once applied
     * (200, with the position), or 202 if the change still waits after {@link #CHANGE_WAIT_NS}.
     */
    private void params(final ChannelHandlerContext ctx, final boolean keepAlive, final String vnf, final String body)
    {
        final ChainRuntime runtime = view.executor().runtime();
        int index = -1;
        final List<String> names = new ArrayList<>();
        for (int v = 0; v < runtime.size(); v++)
        {
            names.add(runtime.instance(v).name());
            if (runtime.instance(v).name().equals(vnf))
            {
                index = v;
            }
        }
        if (index < 0)
        {
            error(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "no VNF '" + vnf + "' in this chain",
                "POST /params/<vnf> with a VNF of " + String.join(", ", names));
            return;
        }
        final Optional<ParamChanges> changes = view.executor().paramChanges();
        if (changes.isEmpty())
        {
            error(ctx, false, HttpResponseStatus.SERVICE_UNAVAILABLE, "the " + view.executor().describe()
                + " executor takes no parameter changes", "run with the tpg or serial executor");
            return;
        }
        final VnfFactory factory = runtime.spec().vnfs().get(index).factory();
        final Map<String, Object> values;
        try
        {
            values = parseValues(body);
        }
        catch (final IOException | IllegalArgumentException e)
        {
            error(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, "the body is not a JSON object of new values: "
                + e.getMessage().lines().findFirst().orElse(""), "send e.g. {\"" + LiveParams.liveNames(factory).stream()
                .findFirst().orElse("name") + "\": value}");
            return;
        }
        final Optional<LiveParams.Problem> problem = LiveParams.check(factory, vnf, values);
        if (problem.isPresent())
        {
            refuse(ctx, keepAlive, problem.get());
            return;
        }
        final ParamChanges.Change change;
        try
        {
            change = changes.get().offer(vnf, values);
        }
        catch (final VnfConfigException e)
        {
            refuse(ctx, keepAlive, LiveParams.refused(factory, vnf, e));
            return;
        }
        catch (final IllegalStateException e)
        {
            final boolean ended = changes.get().ended();
            error(ctx, keepAlive, ended ? HttpResponseStatus.CONFLICT : HttpResponseStatus.SERVICE_UNAVAILABLE,
                (ended ? "the run has ended; nothing changed" : e.getMessage()),
                ended ? "change the parameter in the chain's YAML for the next run" : "try again in a moment");
            return;
        }
        awaitChange(ctx, change, System.nanoTime() + CHANGE_WAIT_NS, () ->
        {
            final ObjectNode answer = JSON.createObjectNode();
            answer.put("vnf", vnf);
            final ArrayNode changed = answer.putArray("changes");
            for (final Map.Entry<String, Object> e : change.newValues().entrySet())
            {
                final ObjectNode entry = changed.addObject();
                entry.put("parameter", e.getKey());
                entry.set("new_value", JSON.valueToTree(e.getValue()));
            }
            if (change.appliedAt() >= 0)
            {
                answer.put("applied", true);
                answer.put("at_packet", change.appliedAt());
                send(ctx, keepAlive, json(HttpResponseStatus.OK, answer));
            }
            else if (change.dropped())
            {
                error(ctx, keepAlive, HttpResponseStatus.CONFLICT, "the run ended before the change took effect; nothing"
                    + " changed", "change the parameter in the chain's YAML for the next run");
            }
            else
            {
                answer.put("applied", false);
                answer.put("waiting", "for a point with no batch in flight; the run report's param_changes will say where it"
                    + " took effect");
                send(ctx, keepAlive, json(HttpResponseStatus.ACCEPTED, answer));
            }
        });
    }

    private static Map<String, Object> parseValues(final String body) throws IOException
    {
        final JsonNode tree = JSON.readTree(body);
        if (tree == null || !tree.isObject())
        {
            throw new IllegalArgumentException(tree == null ? "the body is empty" : "got " + tree.getNodeType().name()
                .toLowerCase(Locale.ROOT));
        }
        final Map<String, Object> values = new LinkedHashMap<>();
        final Iterator<Map.Entry<String, JsonNode>> fields = tree.fields();
        while (fields.hasNext())
        {
            final Map.Entry<String, JsonNode> field = fields.next();
            values.put(field.getKey(), JSON.treeToValue(field.getValue(), Object.class));
        }
        return values;
    }

    /** A refused change: 409 for a parameter that cannot change while the chain runs, 400 for the rest. */
    private static void refuse(final ChannelHandlerContext ctx, final boolean keepAlive, final LiveParams.Problem problem)
    {
        final ObjectNode body = problem(problem.message(), problem.fix());
        if (problem.parameter() != null)
        {
            body.put("parameter", problem.parameter());
        }
        send(ctx, keepAlive, json(problem.kind() == LiveParams.Kind.NOT_LIVE ? HttpResponseStatus.CONFLICT
            : HttpResponseStatus.BAD_REQUEST, body));
    }

    private static void awaitChange(final ChannelHandlerContext ctx, final ParamChanges.Change change, final long deadlineNs,
        final Runnable then)
    {
        if (change.appliedAt() >= 0 || change.dropped() || System.nanoTime() - deadlineNs >= 0)
        {
            then.run();
        }
        else
        {
            ctx.executor().schedule(() -> awaitChange(ctx, change, deadlineNs, then), 1, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Queues {@code command} for the engine and, on the event loop, runs {@code then} once it is
     * answered, or answers 503 if the engine reaches no batch boundary in time.
     */
    private void ask(final ChannelHandlerContext ctx, final boolean keepAlive, final StateCommand command, final Runnable then)
    {
        final Optional<CommandQueue> commands = view.executor().commands();
        if (commands.isEmpty())
        {
            error(ctx, false, HttpResponseStatus.SERVICE_UNAVAILABLE, "the " + view.executor().describe()
                + " executor takes no state lookups", "run with the tpg or serial executor");
            return;
        }
        if (!commands.get().offer(command))
        {
            error(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, CommandQueue.CAPACITY + " lookups are already waiting"
                + " for the engine", "try again in a moment");
            return;
        }
        awaitAnswer(ctx, commands.get(), command, System.nanoTime() + SNAPSHOT_WAIT_NS, () ->
        {
            if (!command.answered())
            {
                error(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, "the engine reached no point between two batches"
                    + " within " + TimeUnit.NANOSECONDS.toMillis(SNAPSHOT_WAIT_NS) + " ms (a batch is stuck, or a checkpoint is"
                    + " being written)", "try again; GET /status says whether the run still moves");
                return;
            }
            then.run();
        });
    }

    /** Says where in the traffic an answer was read: after how many packets, or from the final state. */
    private static void answeredAt(final ObjectNode body, final StateCommand command)
    {
        if (command.packetsBefore() >= 0)
        {
            body.put("after_packets", command.packetsBefore());
        }
        else
        {
            body.put("final", true);
        }
    }

    private static void awaitAnswer(final ChannelHandlerContext ctx, final CommandQueue commands, final StateCommand query,
        final long deadlineNs, final Runnable then)
    {
        commands.answerIfEnded(query);
        if (query.answered() || System.nanoTime() - deadlineNs >= 0)
        {
            then.run();
        }
        else
        {
            ctx.executor().schedule(() -> awaitAnswer(ctx, commands, query, deadlineNs, then), 1, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * GET /events: a server-sent event stream ({@code text/event-stream}), one {@code snapshot}
     * event at once and then every {@link #EVENT_INTERVAL_MS} ms, each {@code /status} and
     * {@code /metrics} of one snapshot: {@code {"status": {...}, "metrics": "..."}} on one
     * {@code data:} line. The stream stays open, after the run's end too, until the client goes.
     */
    private void events(final ChannelHandlerContext ctx, final boolean head)
    {
        if (view.executor().snapshots().isEmpty())
        {
            error(ctx, false, HttpResponseStatus.SERVICE_UNAVAILABLE, "the " + view.executor().describe()
                + " executor publishes no live figures", "run with the tpg or serial executor");
            return;
        }
        final HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        if (head)
        {
            HttpUtil.setContentLength(response, 0);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        HttpUtil.setTransferEncodingChunked(response, true);
        ctx.writeAndFlush(response);
        eventStreams.incrementAndGet();
        ctx.channel().closeFuture().addListener(f -> eventStreams.decrementAndGet());
        sendEvent(ctx);
    }

    private void sendEvent(final ChannelHandlerContext ctx)
    {
        if (!ctx.channel().isActive())
        {
            return;
        }
        withSnapshot(ctx, snapshot ->
        {
            final ObjectNode event = JSON.createObjectNode();
            event.set("status", status(snapshot));
            event.put("metrics", metrics.render(snapshot, view.executor().liveEntries(), System.nanoTime()).toString());
            final String data;
            try
            {
                data = "event: snapshot\ndata: " + COMPACT.writeValueAsString(event) + "\n\n";
            }
            catch (final JsonProcessingException e)
            {
                throw new IllegalStateException("a JSON tree that cannot be written: " + e.getMessage(), e);
            }
            ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(data, StandardCharsets.UTF_8)));
            ctx.executor().schedule(() -> sendEvent(ctx), EVENT_INTERVAL_MS, TimeUnit.MILLISECONDS);
        });
    }

    /** POST /stop: the graceful stop a SIGTERM asks for. */
    private void stop(final ChannelHandlerContext ctx, final boolean keepAlive)
    {
        final RunControl control = view.executor().control();
        final boolean first = control.requestStop(RunControl.StopCause.TERMINATE,
            "stopped by POST /stop before the end of the traffic");
        if (first)
        {
            notices.println("transnfv: POST /stop: finishing the batch in flight and writing every output");
            notices.flush();
        }
        final ObjectNode body = JSON.createObjectNode();
        body.put("stopping", true);
        body.put("first_request", first);
        body.put("cause", control.stopCause().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        body.put("message", control.message());
        send(ctx, keepAlive, json(first ? HttpResponseStatus.ACCEPTED : HttpResponseStatus.OK, body));
    }

    /** Asks the engine for a snapshot and calls {@code then} on the event loop with it, or with the latest one on time-out. */
    private void withSnapshot(final ChannelHandlerContext ctx, final Consumer<RunSnapshot> then)
    {
        final Optional<SnapshotExchange> exchange = view.executor().snapshots();
        if (exchange.isEmpty())
        {
            error(ctx, false, HttpResponseStatus.SERVICE_UNAVAILABLE, "the " + view.executor().describe()
                + " executor publishes no live figures", "run with the tpg or serial executor");
            return;
        }
        final long ticket = exchange.get().request();
        poll(ctx, exchange.get(), ticket, System.nanoTime() + SNAPSHOT_WAIT_NS, then);
    }

    private static void poll(final ChannelHandlerContext ctx, final SnapshotExchange exchange, final long ticket,
        final long deadlineNs, final Consumer<RunSnapshot> then)
    {
        if (exchange.served() >= ticket || System.nanoTime() - deadlineNs >= 0)
        {
            then.accept(exchange.latest());
        }
        else
        {
            ctx.executor().schedule(() -> poll(ctx, exchange, ticket, deadlineNs, then), 1, TimeUnit.MILLISECONDS);
        }
    }

    private ObjectNode status(final RunSnapshot snapshot)
    {
        final RunStats stats = snapshot.stats();
        final RunControl control = view.executor().control();
        final ObjectNode body = JSON.createObjectNode();
        body.put("chain", view.chain());
        body.put("state", snapshot.last() ? "finished" : control.stopRequested() ? "stopping" : "running");
        body.set("executor", JSON.valueToTree(view.executorSettings()));
        final ObjectNode progress = body.putObject("progress");
        final long finished = stats.packetsFinished();
        progress.put("packets_finished", finished);
        if (view.expectedPackets() >= 0)
        {
            progress.put("packets_expected", view.expectedPackets());
            progress.put("fraction", view.expectedPackets() == 0 ? 1.0 : round(finished / (double)view.expectedPackets(), 4));
        }
        progress.put("packets_forwarded", stats.forwarded());
        progress.put("packets_dropped", stats.droppedTotal());
        progress.put("alerts", stats.alertsTotal());
        progress.put("batches", snapshot.batches());
        final ObjectNode rate = body.putObject("rates");
        rate.put("packets_per_second_last_second", Math.round(rates.perSecond(1)));
        rate.put("packets_per_second_last_minute", Math.round(rates.perSecond(60)));
        final ObjectNode latency = body.putObject("latency_us");
        latency.put("sampled_packets", stats.latencyNs().getTotalCount());
        for (final double p : new double[] {50, 99, 99.9})
        {
            latency.put("p" + (p == Math.rint(p) ? Long.toString((long)p) : Double.toString(p).replace(".", "")),
                round(stats.latencyNs().getValueAtPercentile(p) / 1e3, 1));
        }
        final long[] decisions = snapshot.decisionCounts();
        if (decisions.length > 0)
        {
            final ObjectNode byPolicy = body.putObject("scheduler_decisions");
            for (int i = 0; i < decisions.length; i++)
            {
                if (decisions[i] > 0)
                {
                    byPolicy.put(SchedulingPolicy.ofIndex(i).name(), decisions[i]);
                }
            }
        }
        view.executor().paramChanges().ifPresent(changes ->
        {
            if (!changes.applied().isEmpty())
            {
                body.set("param_changes", JSON.valueToTree(changes.applied()));
            }
        });
        final ObjectNode stop = body.putObject("stop");
        stop.put("requested", control.stopRequested());
        stop.put("cause", control.stopCause().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        if (control.message() != null)
        {
            stop.put("message", control.message());
        }
        body.put("snapshot_age_seconds", round(Math.max(0, System.nanoTime() - snapshot.takenNs()) / 1e9, 3));
        return body;
    }

    private static double round(final double value, final int decimals)
    {
        final double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    private static FullHttpResponse pageResponse()
    {
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            Unpooled.wrappedBuffer(PAGE));
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, PAGE.length);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return response;
    }

    private static byte[] readPage()
    {
        try (InputStream in = ControlHandler.class.getResourceAsStream("index.html"))
        {
            if (in == null)
            {
                throw new IllegalStateException("the live page index.html is missing from the jar");
            }
            return in.readAllBytes();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot read the live page from the jar", e);
        }
    }

    private static ObjectNode problem(final String error, final String fix)
    {
        final ObjectNode body = JSON.createObjectNode();
        body.put("error", error);
        body.put("fix", fix);
        return body;
    }

    private static void error(final ChannelHandlerContext ctx, final boolean keepAlive, final HttpResponseStatus status,
        final String error, final String fix)
    {
        send(ctx, keepAlive, json(status, problem(error, fix)));
    }

    private static FullHttpResponse json(final HttpResponseStatus status, final ObjectNode body)
    {
        try
        {
            final FullHttpResponse response = response(status, JSON.writeValueAsString(body) + "\n");
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON + "; charset=utf-8");
            return response;
        }
        catch (final JsonProcessingException e)
        {
            throw new IllegalStateException("a JSON tree that cannot be written: " + e.getMessage(), e);
        }
    }

    /** GET /metrics: the exposition rendered into the renderer's kept buffer, sent in one pooled copy of it. */
    private FullHttpResponse exposition(final ChannelHandlerContext ctx, final RunSnapshot snapshot)
    {
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            metrics.render(snapshot, view.executor().liveEntries(), System.nanoTime()).copyInto(ctx.alloc()));
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, PrometheusText.CONTENT_TYPE);
        return response;
    }

    private static FullHttpResponse response(final HttpResponseStatus status, final String body)
    {
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return response;
    }

    private static void send(final ChannelHandlerContext ctx, final boolean keepAlive, final FullHttpResponse response)
    {
        send(ctx, keepAlive, false, response);
    }

    private static void send(final ChannelHandlerContext ctx, final boolean keepAlive, final boolean head,
        final FullHttpResponse response)
    {
        if (head)
        {
            // HEAD: the GET's headers (its length included), no body
            response.content().clear();
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive)
        {
            ctx.writeAndFlush(response);
        }
        else
        {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
