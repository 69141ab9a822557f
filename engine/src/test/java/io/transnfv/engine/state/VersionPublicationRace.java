package io.transnfv.engine.state;

import io.transnfv.tpg.graph.OperationStateMachine;
import io.transnfv.tpg.graph.TaskPrecedenceGraph;
import io.transnfv.tpg.txn.TransactionLog;
import io.transnfv.vnf.api.KeyKind;
import io.transnfv.vnf.api.TableScope;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.instance.TableCatalog;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A version written by one executor and read by the operation that depends on it, run by
 * whichever executor gets it (the writer, as its last resolver, or the reader's own executor
 * if the dependency was resolved before it arrived): the reader always sees the version's
 * value, never the committed value under it. This is the path every cross-transaction
 * dependency takes: plain version store, release of the version state, dependency
 * resolution, acquire on the reader's side. r1, r2: the value read by the writer's and the
 * reader's executor, -1 where that executor did not run the read. Run by
 * {@code mvn verify -Pjcstress}.
 */
@JCStressTest
@Outcome(id = {"42, -1", "-1, 42"}, expect = ACCEPTABLE, desc = "the read ran once and saw the version")
@Outcome(id = {"5, -1", "-1, 5"}, expect = FORBIDDEN, desc = "the read saw the committed value: the version was not published")
@Outcome(expect = FORBIDDEN, desc = "the read ran twice or never")
@State
public class VersionPublicationRace
{
    private static final long KEY = 7;

    private final TaskPrecedenceGraph graph = new TaskPrecedenceGraph();
    private final OperationStateMachine machine = new OperationStateMachine();
    private final MultiVersionStateTable state;
    private final int reader;

    public VersionPublicationRace()
    {
        final TableCatalog catalog = new TableCatalog();
        catalog.add("vnf", new TableSpec("t", TableScope.CROSS_FLOW, KeyKind.INDEX, 0, ""));
        state = new MultiVersionStateTable(catalog);
        state.put(0, KEY, 5);
        final TransactionLog log = new TransactionLog();
        log.begin(0, 0, null);
        log.write(0, KEY, 42);
        log.end();
        log.begin(1, 1, null);
        log.read(0, KEY);
        log.end();
        state.beginBatch(graph, log);
        graph.buildAndSeal(log, machine, state);
        // as the executor sets it up for several workers: atomic counts, and the reader is a
        // unit that parks where it is blocked, handed out by its last resolver
        machine.concurrent(true);
        machine.singleOperationUnits(false);
        reader = graph.entryOperation(1);
    }

    @Actor
    public void writerExecutor(final JJ_Result r)
    {
        state.write(0, 42);
        r.r1 = machine.resolveDependency(reader) ? state.read(1) : -1;
    }

    @Actor
    public void readerExecutor(final JJ_Result r)
    {
        r.r2 = machine.park(reader) ? -1 : state.read(1);
    }
}
