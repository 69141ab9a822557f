package io.transnfv.flink.job;

import org.apache.flink.api.common.JobID;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A finished job's checkpoint statistics, asked of the JobManager's REST endpoint
 * ({@code GET /jobs/<id>/checkpoints}): the counts, the summary's end-to-end duration and state
 * size, and the latest completed checkpoint's state size. The body is read by key, at the depth
 * Flink's {@code CheckpointingStatistics} puts it:
 *
 * <pre>
 *  { "counts":  { "completed": N, "failed": N, ... },
 *    "summary": { "end_to_end_duration": { "max": N, "p50": X, ... }, "state_size": { "max": N, ... }, ... },
 *    "latest":  { "completed": { "state_size": N, ... }, "savepoint": { "id": N, "state_size": N, ... }, ... }, ... }
 * </pre>
 */
final class RestCheckpointStats
{
    private RestCheckpointStats()
    {
    }

    /** @return the job's checkpoint figures, or {@link FlinkCheckpoints#UNKNOWN} if the endpoint does not say. */
    static FlinkCheckpoints of(final String host, final int port, final JobID job)
    {
        try
        {
            final HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build().send(
                HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/jobs/" + job + "/checkpoints")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? parse(response.body()) : FlinkCheckpoints.UNKNOWN;
        }
        catch (final IOException e)
        {
            return FlinkCheckpoints.UNKNOWN;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return FlinkCheckpoints.UNKNOWN;
        }
    }

    /** @return the figures in a {@code /jobs/<id>/checkpoints} body; unknown parts -1. */
    static FlinkCheckpoints parse(final String body)
    {
        final String counts = field(body, "counts");
        if (counts == null)
        {
            return FlinkCheckpoints.UNKNOWN;
        }
        final long completed = number(field(counts, "completed"));
        final long failed = number(field(counts, "failed"));
        final String summary = field(body, "summary");
        final String durations = summary == null ? null : field(summary, "end_to_end_duration");
        final String sizes = summary == null ? null : field(summary, "state_size");
        if (completed <= 0 || durations == null || sizes == null)
        {
            return new FlinkCheckpoints(completed, failed, -1, -1, -1, -1);
        }
        final double p50 = decimal(field(durations, "p50"));
        final String latestCompleted = latest(field(body, "latest"));
        final long maxStateBytes = number(field(sizes, "max"));
        return new FlinkCheckpoints(completed, failed, Double.isNaN(p50) ? -1 : p50, number(field(durations, "max")),
            latestCompleted == null ? maxStateBytes : number(field(latestCompleted, "state_size")), maxStateBytes);
    }

    /** @return the later of {@code latest}'s completed checkpoint and savepoint (by id), or null if it names neither. */
    private static String latest(final String latest)
    {
        if (latest == null)
        {
            return null;
        }
        final String checkpoint = field(latest, "completed");
        final String savepoint = field(latest, "savepoint");
        if (checkpoint == null || checkpoint.equals("null"))
        {
            return savepoint == null || savepoint.equals("null") ? null : savepoint;
        }
        if (savepoint == null || savepoint.equals("null"))
        {
            return checkpoint;
        }
        return number(field(savepoint, "id")) > number(field(checkpoint, "id")) ? savepoint : checkpoint;
    }

    /** @return a whole number's value, -1 if absent or not a number. */
    private static long number(final String value)
    {
        final double d = decimal(value);
        return Double.isNaN(d) ? -1 : Math.round(d);
    }

    /** @return a number's value (Jackson may quote NaN), NaN if absent or not a number. */
    private static double decimal(final String value)
    {
        if (value == null)
        {
            return Double.NaN;
        }
        try
        {
            return Double.parseDouble(value.startsWith("\"") ? value.substring(1, value.length() - 1) : value);
        }
        catch (final NumberFormatException e)
        {
            return Double.NaN;
        }
    }

    /**
     * @return the raw text of the value of {@code key} among {@code object}'s own members (not
     *         those of objects inside it): a number, {@code null}, a quoted string, or an object or
     *         array with its brackets; null if {@code object} has no such member.
     */
    static String field(final String object, final String key)
    {
        final String quoted = "\"" + key + "\"";
        int depth = 0;
        for (int i = 0; i < object.length(); i++)
        {
            final char c = object.charAt(i);
            if (c == '"')
            {
                final int end = endOfString(object, i);
                if (depth == 1 && object.startsWith(quoted, i) && end == i + quoted.length() - 1)
                {
                    int v = end + 1;
                    while (v < object.length() && Character.isWhitespace(object.charAt(v)))
                    {
                        v++;
                    }
                    if (v < object.length() && object.charAt(v) == ':')
                    {
                        v++;
                        while (v < object.length() && Character.isWhitespace(object.charAt(v)))
                        {
                            v++;
                        }
                        return value(object, v);
                    }
                }
                i = end;
            }
            else if (c == '{' || c == '[')
            {
                depth++;
            }
            else if (c == '}' || c == ']')
            {
                depth--;
            }
        }
        return null;
    }

    /** @return the value starting at {@code from}. */
    private static String value(final String text, final int from)
    {
        if (from >= text.length())
        {
            return null;
        }
        final char first = text.charAt(from);
        if (first == '"')
        {
            return text.substring(from, endOfString(text, from) + 1);
        }
        if (first == '{' || first == '[')
        {
            int depth = 0;
            for (int i = from; i < text.length(); i++)
            {
                final char c = text.charAt(i);
                if (c == '"')
                {
                    i = endOfString(text, i);
                }
                else if (c == '{' || c == '[')
                {
                    depth++;
                }
                else if ((c == '}' || c == ']') && --depth == 0)
                {
                    return text.substring(from, i + 1);
                }
            }
            return null;
        }
        int end = from;
        while (end < text.length() && ",}] \n\r\t".indexOf(text.charAt(end)) < 0)
        {
            end++;
        }
        return text.substring(from, end);
    }

    /** @return the index of the quote that closes the string opened at {@code open}. */
    private static int endOfString(final String text, final int open)
    {
        for (int i = open + 1; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '\\')
            {
                i++;
            }
            else if (c == '"')
            {
                return i;
            }
        }
        return text.length() - 1;
    }
}
