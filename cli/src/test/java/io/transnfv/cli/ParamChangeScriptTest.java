package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.report.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Change scripts: {@code verify --param-changes} replays one in the oracle and in the engine, each
 * change at its packet, and refuses a script the chain cannot take with the validator's words;
 * {@code run --param-changes-out} writes the form it reads.
 */
class ParamChangeScriptTest
{
    private static final List<ParamChanges.Applied> SCRIPT = List.of(
        new ParamChanges.Applied("fw", "rules", List.of(), List.of("deny udp any any"), 2_000),
        new ParamChanges.Applied("fw", "default_action", "allow", "deny", 2_000),
        new ParamChanges.Applied("scan", "threshold", 20, 2, 3_500),
        new ParamChanges.Applied("fw", "rules", List.of("deny udp any any"), List.of(), 6_000));

    @TempDir
    Path dir;

    @Test
    void shouldReplayAChangeScriptInTheOracleAndTheEngineAtItsPackets() throws IOException
    {
        final Path script = dir.resolve("changes.json");
        ReportJson.writeParamChanges(SCRIPT, script);
        final Captured verify = Captured.run("verify", "fw-portscan-monitor", "--generate", "packets=8000,new_conn_ratio=0.3",
            "--threads", "2", "--param-changes", script.toString());
        assertEquals(VerifyCommand.EQUIVALENT, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("8,000 packets, records and final state equal to the oracle")
            && verify.out().contains("4 of the script's 4 parameter change(s) applied in both at their packets"), verify.out());
    }

    @Test
    void shouldReadTheChangesFromARunReportAsFromAScript() throws IOException
    {
        final ObjectMapper json = new ObjectMapper();
        final Path script = dir.resolve("changes.json");
        ReportJson.writeParamChanges(SCRIPT, script);
        // a run report carries the same list under the same key, among its other fields
        final ObjectNode report = json.createObjectNode();
        report.put("schema_version", RunReport.SCHEMA_VERSION);
        report.put("chain", "fw-portscan-monitor");
        report.set("param_changes", json.readTree(script.toFile()).get("param_changes"));
        final Path reportFile = dir.resolve("report.json");
        json.writeValue(reportFile.toFile(), report);
        final Captured verify = Captured.run("verify", "fw-portscan-monitor", "--generate", "packets=8000",
            "--threads", "2", "--param-changes", reportFile.toString());
        assertEquals(VerifyCommand.EQUIVALENT, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("4 of the script's 4 parameter change(s) applied in both"), verify.out());
    }

    @Test
    void shouldRefuseAScriptThatChangesAParameterFixedForTheRun() throws IOException
    {
        final Path script = dir.resolve("changes.json");
        ReportJson.writeParamChanges(List.of(new ParamChanges.Applied("scan", "window", "10000000000ns", "5s", 100)), script);
        final Captured verify = Captured.run("verify", "fw-portscan-monitor", "--generate", "packets=1000",
            "--param-changes", script.toString());
        assertEquals(Failures.BAD_INPUT, verify.status(), verify.out() + verify.err());
        assertTrue(verify.err().contains("at packet 100, VNF 'scan': parameter 'window' of VNF 'scan' cannot change while the"
            + " chain runs"), verify.err());
        assertTrue(verify.err().contains("fix: change it in the chain's YAML and start the run again; the parameters of type"
            + " 'port-scan-detector' that may change while it runs: threshold"), verify.err());
    }

    @Test
    void shouldWriteTheChangesOfARunAsAScriptEvenWhenNoneWereMade() throws IOException
    {
        final Path script = dir.resolve("none.json");
        final Path report = dir.resolve("report.json");
        final Captured run = Captured.run("run", "lb", "--generate", "packets=500", "--no-progress",
            "--param-changes-out", script.toString(), "--report", report.toString());
        assertEquals(0, run.status(), run.out() + run.err());
        final JsonNode written = new ObjectMapper().readTree(script.toFile());
        assertTrue(written.get("param_changes").isArray() && written.get("param_changes").isEmpty(), written.toString());
        assertFalse(new ObjectMapper().readTree(report.toFile()).has("param_changes"), "left out of a report when nothing changed");
    }
}
