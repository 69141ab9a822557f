package io.transnfv.flink.job;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The checkpoint figures read off a JobManager's {@code /jobs/<id>/checkpoints} body, by key at Flink's depth. */
class RestCheckpointStatsTest
{
    /** The shape Flink 2.3's CheckpointingStatistics serialises to, with history entries that repeat the keys deeper down. */
    private static final String BODY = """
        {"counts":{"restored":0,"total":9,"in_progress":0,"completed":7,"failed":2},
         "summary":{"checkpointed_size":{"min":900,"max":5100,"avg":3000,"p50":3100.0,"p90":5000.0,"p95":5100.0,"p99":5100.0,"p999":5100.0},
                    "state_size":{"min":1000,"max":5200,"avg":3100,"p50":3200.0,"p90":5100.0,"p95":5200.0,"p99":5200.0,"p999":5200.0},
                    "end_to_end_duration":{"min":4,"max":61,"avg":17,"p50":12.5,"p90":40.0,"p95":61.0,"p99":61.0,"p999":61.0},
                    "alignment_buffered":{"min":0,"max":0,"avg":0,"p50":0.0,"p90":0.0,"p95":0.0,"p99":0.0,"p999":0.0}},
         "latest":{"completed":{"className":"completed","id":8,"status":"COMPLETED","is_savepoint":false,"state_size":4800,
                                "end_to_end_duration":9,"tasks":{},"external_path":"<checkpoint-not-externally-addressable>"},
                   "savepoint":null,"failed":{"id":9,"status":"FAILED","state_size":0,"failure_message":"{\\"completed\\": 1}"},
                   "restored":null},
         "history":[{"id":9,"status":"FAILED","state_size":0,"end_to_end_duration":3},
                    {"id":8,"status":"COMPLETED","state_size":4800,"end_to_end_duration":9,"summary":{"completed":99}}]}
        """;

    @Test
    void shouldReadTheCountsTheSummaryAndTheLatestCompletedCheckpoint()
    {
        final FlinkCheckpoints figures = RestCheckpointStats.parse(BODY);
        assertEquals(new FlinkCheckpoints(7, 2, 12.5, 61, 4800, 5200), figures);
    }

    @Test
    void shouldTakeTheLaterOfTheLatestCheckpointAndSavepoint()
    {
        final String withSavepoint = BODY.replace("\"savepoint\":null", "\"savepoint\":{\"id\":11,\"status\":\"COMPLETED\",\"state_size\":5200}");
        assertEquals(5200, RestCheckpointStats.parse(withSavepoint).latestStateBytes());
        final String olderSavepoint = BODY.replace("\"savepoint\":null", "\"savepoint\":{\"id\":3,\"status\":\"COMPLETED\",\"state_size\":1000}");
        assertEquals(4800, RestCheckpointStats.parse(olderSavepoint).latestStateBytes());
    }

    @Test
    void shouldLeaveTheFiguresUnknownWhereTheBodyDoesNotGiveThem()
    {
        assertEquals(FlinkCheckpoints.UNKNOWN, RestCheckpointStats.parse("{\"errors\":[\"Job not found\"]}"));
        final FlinkCheckpoints none = RestCheckpointStats.parse(
            "{\"counts\":{\"completed\":0,\"failed\":1},\"summary\":{\"state_size\":{\"max\":0},\"end_to_end_duration\":{\"max\":0,\"p50\":\"NaN\"}}}");
        assertEquals(new FlinkCheckpoints(0, 1, -1, -1, -1, -1), none);
        final FlinkCheckpoints noHistogram = RestCheckpointStats.parse(BODY.replace("\"p50\":12.5", "\"p50\":\"NaN\""));
        assertEquals(-1, noHistogram.p50DurationMs());
        assertEquals(61, noHistogram.maxDurationMs());
    }

    @Test
    void shouldFindAKeyOnlyAmongTheObjectsOwnMembers()
    {
        assertEquals("{\"completed\":2}", RestCheckpointStats.field("{\"a\":{\"b\":1,\"completed\":3},\"x\":{\"completed\":2}}", "x"));
        assertEquals(null, RestCheckpointStats.field("{\"a\":{\"completed\":3}}", "completed"));
        assertEquals(null, RestCheckpointStats.field("{\"a\":\"completed\"}", "completed"), "a string value is no key");
        assertEquals("\"p\\\"q\"", RestCheckpointStats.field("{\"s\":\"p\\\"q\",\"t\":1}", "s"));
    }
}
