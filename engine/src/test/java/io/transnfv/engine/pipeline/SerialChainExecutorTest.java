package io.transnfv.engine.pipeline;

import io.transnfv.engine.chain.ChainRuntime;
import io.transnfv.engine.egress.PacketRecord;
import io.transnfv.engine.report.RunReport;
import io.transnfv.engine.report.RunReport.AlertReport;
import io.transnfv.engine.report.RunReport.AlertSubject;
import io.transnfv.engine.report.RunReport.DropCount;
import io.transnfv.engine.report.RunReport.ExecutorReport;
import io.transnfv.engine.report.RunStats;
import io.transnfv.engine.source.SourceStats;
import io.transnfv.tpg.txn.TransactionView;
import io.transnfv.vnf.instance.ActionRecorder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SerialChainExecutorTest
{
    @Test
    void shouldRunEachPacketThroughItsPathAndRecordVerdicts() throws IOException
    {
        final TestChains.ListSource source = new TestChains.ListSource()
            .tcp("10.0.0.1", 80)
            .udp("10.0.0.1", 53)
            .tcp("10.0.0.1", 443)
            .tcp("10.0.0.2", 22)
            .raw(new byte[] {1, 2, 3});
        final List<String> records = new ArrayList<>();
        try (SerialChainExecutor oracle = new SerialChainExecutor(TestChains.quotaThenRewrite()))
        {
            final RunStats stats = oracle.run(source, (record, buffer, packet) ->
                records.add(record.format(new StringBuilder(), oracle.runtime(), packet).toString()));

            assertEquals(List.of(
                "0 1000000000 FORWARD quota>rewrite tcp 10.0.0.1:1000>192.0.2.1:8080 rewrite.port=80",
                "1 1000400000 FORWARD quota udp 10.0.0.1:1000>192.0.2.1:53",
                "2 1000800000 DROP quota:quota quota tcp 10.0.0.1:1000>192.0.2.1:443 alert=quota:third:3",
                "3 1001200000 FORWARD quota>rewrite tcp 10.0.0.2:1000>192.0.2.1:8080 rewrite.port=22",
                "4 1001600000 DROP ingress:truncated-l2 - -"), records);
            assertEquals(5, stats.packetsFinished());
            assertEquals(3, stats.forwarded());
            assertEquals(1, stats.drops(0, 1));
            assertEquals(2, stats.visits(1));
            // the expiry tick at 1.001 s reset host 10.0.0.1's count; 10.0.0.2 came after it
            assertEquals("quota.counts 10.0.0.2 1\n", oracle.dumpState());

            final RunReport report = RunReport.builder().transnfvVersion("test")
                .executor(ExecutorReport.serial(oracle.describe())).source(source.describe())
                .measured(stats, source.stats(), 1_000_000).build();
            final String text = report.toText();
            assertTrue(text.contains("quota:quota"), text);
            assertTrue(text.contains("ingress:truncated-l2"), text);
            assertEquals(List.of(new AlertReport("quota", "third", 1, List.of(new AlertSubject("3", 1)), false)),
                report.alerts(), "the alert and its subject, in hexadecimal as in the record");
            assertEquals(List.of(new DropCount("ingress", "truncated-l2", 1), new DropCount("quota", "quota", 1)),
                report.drops());
        }
    }

    @Test
    void shouldListAtMostMaxAlertSubjectsMostAlertedFirstAndSayThatThereWereMore()
    {
        final RunStats stats = new RunStats(new ChainRuntime(TestChains.quotaThenRewrite()));
        final PacketRecord record = new PacketRecord();
        final ActionRecorder actions = new ActionRecorder();
        final int subjects = RunStats.MAX_ALERT_SUBJECTS + 1;
        for (int subject = 0; subject < subjects; subject++)
        {
            record.reset(subject, subject);
            actions.reset();
            actions.alert(0, subject);
            actions.alert(0, 0xab);
            record.visit(0, NOT_A_TRANSACTION, actions);
            stats.onFinished(record, 60);
        }
        final RunReport report = RunReport.builder().transnfvVersion("test").executor(ExecutorReport.serial("serial"))
            .source("test").measured(stats, new SourceStats(), 1).build();

        final AlertReport third = report.alerts().get(0);
        assertEquals(2L * subjects, third.count());
        assertEquals(RunStats.MAX_ALERT_SUBJECTS, third.subjects().size());
        assertTrue(third.subjectsTruncated());
        assertEquals(new AlertSubject("ab", subjects + 1), third.subjects().get(0));
        assertEquals(new AlertSubject("0", 1), third.subjects().get(1), "then by subject");
    }

    private static final TransactionView NOT_A_TRANSACTION = new TransactionView()
    {
        @Override
        public boolean aborted()
        {
            return false;
        }

        @Override
        public int abortReason()
        {
            return 0;
        }

        @Override
        public int operationCount()
        {
            return 0;
        }

        @Override
        public long before(final int operation)
        {
            return 0;
        }

        @Override
        public long after(final int operation)
        {
            return 0;
        }

        @Override
        public int chosen(final int operation)
        {
            return 0;
        }

        @Override
        public int type(final int operation)
        {
            throw new IndexOutOfBoundsException("operation " + operation + " of none");
        }

        @Override
        public int table(final int operation)
        {
            throw new IndexOutOfBoundsException("operation " + operation + " of none");
        }

        @Override
        public long key(final int operation)
        {
            throw new IndexOutOfBoundsException("operation " + operation + " of none");
        }

        @Override
        public long scratch(final int slot)
        {
            return 0;
        }

        @Override
        public long timestampNs()
        {
            return 0;
        }
    };
}
