package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
        assertTrue(help.contains("Exit status: 0 equivalent, 1 not equivalent, 2 bad input (chain, option), 3 the check could"
            + " not be completed"), help);
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
}
