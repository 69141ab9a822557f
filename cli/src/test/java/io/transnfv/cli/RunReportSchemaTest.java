package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.report.RunReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real reports, from small runs, against the schema in docs/run-report.schema.json, and the schema's power to refuse. */
class RunReportSchemaTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Schema schema;

    @TempDir
    Path dir;

    @BeforeAll
    static void loadTheSchema() throws IOException
    {
        try (InputStream in = ReportJson.class.getResourceAsStream(ReportJson.SCHEMA_RESOURCE))
        {
            assertNotNull(in, "the schema is packaged beside ReportJson");
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }

    @Test
    void shouldAcceptAReportWithAViolatedCheckerAndItsAlert() throws IOException
    {
        final Path chain = dir.resolve("leak.yaml");
        Files.writeString(chain, "name: leak\nvnfs:\n  - name: leak\n    type: test-leak\nsettings:\n  checkers: { every: 1s }\n");
        final Path report = dir.resolve("leak.json");
        final Captured run = Captured.run("run", chain.toString(), "--generate", "packets=3000,rate_pps=1000", "--no-progress",
            "--report", report.toString());
        assertEquals(0, run.status(), run.err());
        final JsonNode json = JSON.readTree(report.toFile());
        assertEquals(List.of(), schema.validate(json), json::toPrettyString);
        final JsonNode checkers = json.get("checkers");
        assertEquals(3, checkers.get("checks").asInt(), checkers::toPrettyString);
        assertEquals("leak.table-stays-empty", checkers.get("checkers").get(0).asText());
        final JsonNode violation = checkers.get("violations").get(0);
        assertEquals("0", violation.get("first_key").asText());
        assertEquals(3, violation.get("count").asInt());
        assertEquals("checker:table-stays-empty", json.get("alerts").get(0).get("type").asText(), json.get("alerts")::toPrettyString);
        assertEquals(3, json.get("alerts").get(0).get("count").asInt());
    }

    @Test
    void shouldReportAFlinkRunsProcessingRateBesideTheWholeRunsAndFlinksCheckpointFigures() throws IOException
    {
        final Path report = dir.resolve("flink.json");
        final Captured run = Captured.run("run", "lb", "--generate", "packets=4000,seed=3", "--runtime", "flink", "--parallelism", "2",
            "--flink-checkpoint-every", "20ms", "--no-progress", "--report", report.toString());
        assertEquals(0, run.status(), run.out() + run.err());
        final JsonNode json = JSON.readTree(report.toFile());
        assertEquals(List.of(), schema.validate(json), json::toPrettyString);
        final JsonNode flink = json.get("flink");
        assertEquals(2, flink.get("parallelism").asInt(), json::toPrettyString);
        assertEquals("host-pair", flink.get("routing").asText());
        final JsonNode processing = flink.get("processing");
        assertEquals(4000, processing.get("packets").asLong(), json::toPrettyString);
        // the whole run's time holds the cluster's start, which processing leaves out
        assertTrue(processing.get("seconds").asDouble() > 0
            && processing.get("seconds").asDouble() < json.get("throughput").get("wall_seconds").asDouble(), json::toPrettyString);
        final JsonNode checkpoints = flink.get("checkpoints");
        assertTrue(checkpoints.get("completed").asLong() >= 1, json::toPrettyString);
        assertTrue(checkpoints.get("duration_max_ms").asLong() >= checkpoints.get("duration_p50_ms").asDouble(), json::toPrettyString);
        assertTrue(checkpoints.get("latest_state_bytes").asLong() > 0, json::toPrettyString);
        assertTrue(run.out().contains("flink rate           whole run "), run.out());
    }

    @Test
    void shouldSizeBatchesForALatencyTargetGivenOnTheCommandLine() throws IOException
    {
        final Path report = dir.resolve("target.json");
        final Captured run = Captured.run("run", "--generate", "packets=20000,seed=5", "--no-progress", "--threads", "2",
            "--latency-target", "200us", "--report", report.toString());
        assertEquals(0, run.status(), run.err());
        final JsonNode json = JSON.readTree(report.toFile());
        assertEquals(List.of(), schema.validate(json), json::toPrettyString);
        final JsonNode punctuation = json.get("scheduler").get("punctuation");
        assertEquals(200_000, punctuation.get("latency_target_ns").asLong());
        assertEquals(50_000, punctuation.get("age_limit_ns").asLong(), "a batch closes when its first packet waited a quarter");
        assertTrue(punctuation.get("adaptive_batch_limit_min").asInt() >= 1, punctuation::toPrettyString);
        assertTrue(punctuation.get("adaptive_batch_limit_max").asInt() <= 256, punctuation::toPrettyString);
        assertTrue(run.out().isEmpty() || !run.out().contains("WARN"));

        final Captured bad = Captured.run("run", "--generate", "packets=100", "--latency-target", "soon");
        assertEquals(Failures.BAD_INPUT, bad.status(), bad.err());
    }

    @Test
    void shouldWriteAnEngineReportThatTheSchemaAcceptsWithEverySettingAndOutputExplicit() throws IOException
    {
        final Path report = dir.resolve("report.json");
        final Path records = dir.resolve("records.txt");
        final Path state = dir.resolve("state.txt");
        final Path out = dir.resolve("out.pcap");
        final Captured run = Captured.run("run", "--generate", "packets=20000,seed=5", "--no-progress", "--threads", "2",
            "--batch", "64", "--interval", "500us", "--warmup", "300", "--report", report.toString(),
            "--records", records.toString(), "--state", state.toString(), "--out", out.toString());
        assertEquals(0, run.status(), run.err());

        final JsonNode json = JSON.readTree(report.toFile());
        assertEquals(List.of(), schema.validate(json), json::toPrettyString);
        assertEquals(RunReport.SCHEMA_VERSION, json.get("schema_version").asInt());
        assertEquals(Transnfv.version(), json.get("transnfv_version").asText());
        assertNotEquals("development build", Transnfv.version(), "the build fills in the version");

        final JsonNode executor = json.get("executor");
        assertEquals("tpg", executor.get("kind").asText());
        assertEquals("adaptive", executor.get("strategy").asText());
        assertEquals(2, executor.get("threads").asInt());
        assertEquals(64, executor.get("batch_transactions").asInt());
        assertEquals(500_000, executor.get("punctuation_interval_ns").asLong());
        // two threads: two workers, each reading, processing and executing in turn
        final JsonNode scheduler = json.get("scheduler");
        assertEquals(2, scheduler.get("workers").asInt());
        assertEquals(2, scheduler.get("threads").size());
        assertEquals(64, scheduler.get("punctuation").get("batch_size_limit").asInt());
        assertTrue(scheduler.get("time_ns_per_packet").size() > 5, scheduler::toPrettyString);
        assertEquals(0, scheduler.get("punctuation").get("latency_target_ns").asLong(), "no target unless asked");

        final JsonNode outputs = json.get("outputs");
        assertEquals(out.toString(), outputs.get("out").asText());
        assertEquals(records.toString(), outputs.get("records").asText());
        assertEquals(state.toString(), outputs.get("state").asText());
        assertEquals(report.toString(), outputs.get("report").asText());

        final JsonNode trojan = json.get("alerts").get(0);
        assertEquals("trojan", trojan.get("type").asText());
        assertFalse(trojan.get("subjects").isEmpty(), trojan::toPrettyString);
        final String subject = trojan.get("subjects").get(0).get("subject").asText();
        assertTrue(Files.readString(records).contains("alert=td:trojan:" + subject), "subjects read as in the records");
        assertEquals(300, json.get("warm_up").get("packets").asLong());
    }

    @Test
    void shouldPrintASerialReportThatTheSchemaAcceptsWithoutTheEnginesParts() throws IOException
    {
        final Captured run = Captured.run("run", "--executor", "serial", "--generate", "packets=2000", "--no-progress", "--json");
        assertEquals(0, run.status(), run.err());

        final JsonNode json = JSON.readTree(run.out());
        assertEquals(List.of(), schema.validate(json), json::toPrettyString);
        assertEquals("serial", json.get("executor").get("kind").asText());
        assertEquals(1, json.get("executor").get("threads").asInt());
        assertFalse(json.has("scheduler"));
        assertFalse(json.get("executor").has("strategy"));
        assertTrue(json.get("outputs").isEmpty(), "no file was asked for");
    }

    @Test
    void shouldReportCheckpointsAndTheResumeInTheJson(@TempDir final Path dir) throws IOException
    {
        final Path checkpoints = dir.resolve("ckpt");
        final String[] run = {"run", "--executor", "serial", "--generate", "packets=3000,seed=6", "--batch", "100", "--no-progress",
            "--json"};
        final Captured first = Captured.run(concat(run, "--checkpoint-dir", checkpoints.toString(), "--checkpoint-every", "5"));
        assertEquals(0, first.status(), first.err());
        final JsonNode taken = JSON.readTree(first.out());
        assertEquals(List.of(), schema.validate(taken), taken::toPrettyString);
        assertEquals(6, taken.get("checkpoints").get("taken").asLong(), taken.get("checkpoints")::toPrettyString);
        assertFalse(taken.get("checkpoints").has("resumed"), "a fresh run resumed nothing");
        assertFalse(taken.get("checkpoints").get("outputs_at_least_once").asBoolean(), "a generator is replayable");

        final Captured resumed = Captured.run(concat(run, "--resume", checkpoints.toString(), "--checkpoint-every", "5"));
        assertEquals(0, resumed.status(), resumed.err());
        final JsonNode again = JSON.readTree(resumed.out());
        assertEquals(List.of(), schema.validate(again), again::toPrettyString);
        assertEquals(3000, again.get("checkpoints").get("resumed").get("at_packet").asLong(), again.get("checkpoints")::toPrettyString);
    }

    private static String[] concat(final String[] head, final String... tail)
    {
        return Stream.concat(Stream.of(head), Stream.of(tail)).toArray(String[]::new);
    }

    @Test
    void shouldReportAPacedRunsOfferedAndMissedPacketsInTheSchemasPacingObject() throws IOException
    {
        // a tiny ring at a high rate: the engine cannot always keep up, and whatever it missed is counted
        final Captured run = Captured.run("run", "--generate", "packets=20000,seed=5", "--no-progress", "--json",
            "--rate", "4M", "--rx-ring", "2");
        assertEquals(0, run.status(), run.err());

        final JsonNode json = JSON.readTree(run.out());
        assertEquals(List.of(), schema.validate(json), json::toPrettyString);
        final JsonNode pacing = json.get("pacing");
        assertEquals("4000000 packets/s", pacing.get("rate").asText());
        assertEquals(2, pacing.get("rx_ring_slots").asInt());
        assertEquals(20_000, pacing.get("offered").asLong(), "every generated packet arrived");
        assertEquals(20_000, pacing.get("rx_missed").asLong() + json.get("packets").get("in").asLong(),
            "a packet is either missed at the ring or enters the chain");
    }

    @Test
    void shouldRefuseReportsThatStrayFromTheSchema() throws IOException
    {
        final Captured run = Captured.run("run", "--generate", "packets=2000", "--no-progress", "--json");
        assertEquals(0, run.status(), run.err());
        final ObjectNode valid = (ObjectNode)JSON.readTree(run.out());
        assertEquals(List.of(), schema.validate(valid));

        final ObjectNode camelCase = valid.deepCopy();
        ((ObjectNode)camelCase.get("scheduler")).put("timeBreakdownNsPerOp", 1.0);
        assertRefused(camelCase, "timeBreakdownNsPerOp");

        final ObjectNode unversioned = valid.deepCopy();
        unversioned.remove("schema_version");
        assertRefused(unversioned, "schema_version");

        final ObjectNode engineWithoutStrategy = valid.deepCopy();
        ((ObjectNode)engineWithoutStrategy.get("executor")).remove("strategy");
        assertRefused(engineWithoutStrategy, "strategy");

        final ObjectNode nullInsteadOfAbsent = valid.deepCopy();
        nullInsteadOfAbsent.putNull("warm_up");
        assertRefused(nullInsteadOfAbsent, "warm_up");
    }

    @Test
    void shouldAcceptTheParameterChangesOfARunAsReportJsonWritesThem() throws IOException
    {
        final Captured run = Captured.run("run", "--generate", "packets=500", "--no-progress", "--json");
        assertEquals(0, run.status(), run.err());
        final ObjectNode report = (ObjectNode)JSON.readTree(run.out());
        assertFalse(report.has("param_changes"), "absent when nothing changed");
        final Path script = dir.resolve("changes.json");
        ReportJson.writeParamChanges(List.of(
            new ParamChanges.Applied("lb", "candidates", 0, 2, 120),
            new ParamChanges.Applied("fw", "rules", List.of(), List.of("deny udp any any"), 300)), script);
        report.set("param_changes", JSON.readTree(script.toFile()).get("param_changes"));
        assertEquals(List.of(), schema.validate(report), report::toPrettyString);

        final ObjectNode withoutPosition = report.deepCopy();
        ((ObjectNode)withoutPosition.get("param_changes").get(0)).remove("at_packet");
        assertRefused(withoutPosition, "at_packet");
    }

    private static void assertRefused(final JsonNode report, final String about)
    {
        final List<Error> errors = schema.validate(report);
        assertFalse(errors.isEmpty(), "accepted a report with a bad '" + about + "'");
        assertTrue(errors.toString().contains(about), errors::toString);
    }
}
