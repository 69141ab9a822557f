package io.transnfv.flink.job;

import org.apache.flink.api.common.JobID;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A finished job's checkpoint counts, asked of the JobManager's REST endpoint ({@code /jobs/<id>/checkpoints}). */
final class RestCheckpointCounts
{
    private static final Pattern COMPLETED = Pattern.compile("\"completed\"\\s*:\\s*(\\d+)");
    private static final Pattern FAILED = Pattern.compile("\"failed\"\\s*:\\s*(\\d+)");

    private RestCheckpointCounts()
    {
    }

    /** @return {@code {completed, failed}}, or {@code {-1, -1}} if the endpoint does not say. */
    static long[] of(final String host, final int port, final JobID job)
    {
        try
        {
            final HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build().send(
                HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/jobs/" + job + "/checkpoints")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            final int counts = response.body().indexOf("\"counts\"");
            if (response.statusCode() != 200 || counts < 0)
            {
                return new long[] {-1, -1};
            }
            final String body = response.body().substring(counts);
            return new long[] {first(COMPLETED.matcher(body)), first(FAILED.matcher(body))};
        }
        catch (final IOException e)
        {
            return new long[] {-1, -1};
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return new long[] {-1, -1};
        }
    }

    private static long first(final Matcher m)
    {
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
