package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code verify}'s exit statuses, one per outcome, and its JSON report. */
class VerifyCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldExitWithItsOwnStatusWhenTheTrafficCannotBeReadNotTheStatusOfADifference() throws IOException
    {
        final Path junk = Files.writeString(dir.resolve("junk.pcap"), "this is not a capture");
        final Captured verify = Captured.run("verify", "--pcap", junk.toString());
        assertEquals(VerifyCommand.CANNOT_CHECK, verify.status(), verify.out() + verify.err());
        assertTrue(VerifyCommand.CANNOT_CHECK != VerifyCommand.NOT_EQUIVALENT
            && VerifyCommand.CANNOT_CHECK != Failures.BAD_INPUT);
        assertTrue(verify.err().contains("junk.pcap: byte 0"), verify.err());
    }

    @Test
    void shouldExitNotEquivalentWithTheFirstDivergingPacketWhenTheEngineDiffersFromTheOracle() throws IOException
    {
        final Path chain = Files.writeString(dir.resolve("thread-bound.yaml"),
            "name: thread-bound\nvnfs:\n  - name: bound\n    type: test-thread-bound\n");
        final Captured verify = Captured.run("verify", chain.toString(), "--generate", "packets=200", "--seeds", "1",
            "--threads", "2", "--json");
        assertEquals(VerifyCommand.NOT_EQUIVALENT, verify.status(), verify.out() + verify.err());
        final JsonNode json = new ObjectMapper().readTree(verify.out());
        assertFalse(json.get("equivalent").asBoolean());
        assertEquals(VerifyCommand.NOT_EQUIVALENT, json.get("exit_status").asInt());
        assertEquals(0, json.get("checks_equivalent").asInt());
        assertEquals(0, json.get("checks").get(0).get("first_diverging_packet").asLong(), verify.out());
    }

    @Test
    void shouldDocumentEveryExitStatusInItsHelp()
    {
        final String help = Captured.run("verify", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("Exit status: 0 equivalent (or, relaxed, every difference one that stale reads allow),"
            + " 1 not equivalent, 2 bad input (chain, option), 3 the check could not be completed"), help);
    }

    @Test
    void shouldPrintEveryCheckAsJson() throws IOException
    {
        final Captured verify = Captured.run("verify", "lb", "--generate", "packets=300", "--seeds", "2", "--threads", "2",
            "--json");
        assertEquals(VerifyCommand.EQUIVALENT, verify.status(), verify.err());
        final JsonNode json = new ObjectMapper().readTree(verify.out());
        assertEquals(VerifyReport.SCHEMA_VERSION, json.get("schema_version").asInt());
        assertFalse(json.get("transnfv_version").asText().isEmpty());
        assertEquals("lb", json.get("chain").asText());
        assertEquals(2, json.get("executor_threads").asInt());
        assertTrue(json.get("equivalent").asBoolean());
        assertEquals(0, json.get("exit_status").asInt());
        assertEquals(2, json.get("checks_total").asInt());
        assertEquals(2, json.get("checks_equivalent").asInt());
        final JsonNode first = json.get("checks").get(0);
        assertEquals(42, first.get("seed").asLong());
        assertEquals(300, first.get("packets").asLong());
        assertTrue(first.get("equivalent").asBoolean());
        assertFalse(first.has("first_diverging_packet"), "absent when nothing diverged");
        assertEquals(43, json.get("checks").get(1).get("seed").asLong());
    }

    /** The load balancer alone, its server loads read as of the batch start, batches cut by count. */
    private static final String STALE_LB = """
        name: stale-lb
        vnfs:%s
          - name: lb
            type: load-balancer
            params: { servers: 12, candidates: 3, idle_timeout: 5ms, expiry_interval: 1ms }
            tables:
              active: { consistency: %s }
        %s
        settings:
          executor_threads: 1
          punctuation: { transactions: 256, interval: 10s }
          traffic:
            generate: { packets: 6000, flows: 1500, new_conn_ratio: 0.5, tcp_ratio: 0.8, seed: 5 }
        """;

    private Path staleLb(final String consistency) throws IOException
    {
        return Files.writeString(dir.resolve("stale-lb.yaml"), String.format(STALE_LB, "", consistency, ""));
    }

    @Test
    void shouldPassAStaleReadsChainThatDiffersAndReportHowManyPacketsAndEntriesDifferWithTheBound() throws IOException
    {
        final Path chain = staleLb("{ stale-reads: 1 }");
        final Captured verify = Captured.run("verify", chain.toString(), "--json");
        assertEquals(VerifyCommand.EQUIVALENT, verify.status(), verify.out() + verify.err());
        final JsonNode json = new ObjectMapper().readTree(verify.out());
        assertFalse(json.get("equivalent").asBoolean(), "the stale loads change choices: not equal to the oracle");
        assertTrue(json.get("relaxed").asBoolean());
        assertEquals(1, json.get("stale_reads").get("lb.active").asInt());
        assertEquals(0, json.get("checks_equivalent").asInt());
        assertEquals(1, json.get("checks_within_stale_reads").asInt());
        final JsonNode check = json.get("checks").get(0);
        assertFalse(check.get("equivalent").asBoolean());
        assertTrue(check.get("within_stale_reads").asBoolean());
        final long differing = check.get("differing_packets").asLong();
        assertTrue(differing > 0 && differing < 6000, verify.out());
        assertEquals(0, check.get("misplaced_packets").asLong());
        assertEquals(0, check.get("unexplained_packets").asLong());
        assertEquals(0, check.get("unexplained_state_entries").asLong());
        assertTrue(check.get("differing_state_entries").get("lb.connections").asLong() > 0, verify.out());
        assertFalse(check.has("reproduce"), "a check that passes has nothing to reproduce");

        final Captured text = Captured.run("verify", chain.toString());
        assertEquals(VerifyCommand.EQUIVALENT, text.status(), text.out() + text.err());
        assertTrue(text.out().contains("WITHIN STALE READS (tpg adaptive, 1 worker")
            && text.out().contains(String.format(Locale.ROOT, "%,d packets", differing))
            && text.out().contains("stale-read tables: lb.active (bound 1 batch)"), text.out());
    }

    @Test
    void shouldFailAStaleReadsChainThatDiffersWhenAskedToCompareStrictly() throws IOException
    {
        final Captured verify = Captured.run("verify", staleLb("{ stale-reads: 1 }").toString(), "--strict", "--json");
        assertEquals(VerifyCommand.NOT_EQUIVALENT, verify.status(), verify.out() + verify.err());
        final JsonNode json = new ObjectMapper().readTree(verify.out());
        assertFalse(json.get("relaxed").asBoolean());
        assertFalse(json.has("checks_within_stale_reads"));
        assertTrue(json.get("checks").get(0).get("reproduce").asText().endsWith(" --strict"), verify.out());
    }

    @Test
    void shouldStillPassTheSameChainWithoutTheHintAsEquivalent() throws IOException
    {
        final Captured verify = Captured.run("verify", staleLb("serializable").toString(), "--json");
        assertEquals(VerifyCommand.EQUIVALENT, verify.status(), verify.out() + verify.err());
        final JsonNode json = new ObjectMapper().readTree(verify.out());
        assertTrue(json.get("equivalent").asBoolean());
        assertFalse(json.has("relaxed"), "no stale-reads table: nothing is relaxed");
        assertEquals(0, json.get("checks").get(0).get("differing_packets").asLong());
    }

    @Test
    void shouldFailAStaleReadsChainWhereAVnfNoStaleReadReachesDiffers() throws IOException
    {
        // the thread-bound VNF before the load balancer drops every packet on the engine's threads:
        // the stale loads behind it cannot explain that
        final Path chain = Files.writeString(dir.resolve("bound-stale-lb.yaml"), String.format(STALE_LB,
            "\n  - name: bound\n    type: test-thread-bound", "{ stale-reads: 1 }", "edges:\n  - from: bound\n    to: lb\n"));
        final Captured verify = Captured.run("verify", chain.toString(), "--threads", "2", "--json");
        assertEquals(VerifyCommand.NOT_EQUIVALENT, verify.status(), verify.out() + verify.err());
        final JsonNode check = new ObjectMapper().readTree(verify.out()).get("checks").get(0);
        assertFalse(check.get("within_stale_reads").asBoolean());
        assertEquals(0, check.get("misplaced_packets").asLong(), "every packet still has its record");
        assertEquals(check.get("differing_packets").asLong(), check.get("unexplained_packets").asLong(), verify.out());
        assertTrue(check.get("unexplained_packets").asLong() > 0, verify.out());

        final Captured text = Captured.run("verify", chain.toString(), "--threads", "2");
        assertEquals(VerifyCommand.NOT_EQUIVALENT, text.status(), text.out() + text.err());
        assertTrue(text.out().contains("of VNFs that no stale read reaches"), text.out());
    }
}
