package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bundled chain of tenants run by the command: per-tenant figures in the summary and the JSON report, summed from the tenants' VNFs. */
class TenantReportTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldReportEveryTenantsPacketsAndDropsInTheJsonReportAndTheSummary() throws IOException
    {
        for (final String executor : List.of("serial", "tpg"))
        {
            final Path report = dir.resolve(executor + ".json");
            final Captured run = Captured.run("run", "tenants", "--generate", "packets=20000,hosts=1200,seed=42", "--executor", executor,
                "--no-progress", "--report", report.toString());
            assertEquals(0, run.status(), run.err());
            final JsonNode json = JSON.readTree(report.toFile());
            assertEquals(List.of(), schema().validate(json), json::toPrettyString);
            final JsonNode tenants = json.get("tenants");
            assertEquals(3, tenants.size(), tenants::toPrettyString);
            final Map<String, Long> vnfPackets = new HashMap<>();
            json.get("vnfs").forEach(v -> vnfPackets.put(v.get("name").asText(), v.get("packets").asLong()));
            long sum = 0;
            for (int t = 0; t < tenants.size(); t++)
            {
                final JsonNode tenant = tenants.get(t);
                final String name = List.of("web", "shop", "secure").get(t);
                assertEquals(name, tenant.get("name").asText());
                assertTrue(tenant.get("in").asLong() > 0, tenant::toPrettyString);
                assertEquals((long)vnfPackets.get(name), tenant.get("in").asLong(), "in = the packets its limiter saw");
                assertEquals(tenant.get("in").asLong(), tenant.get("forwarded").asLong() + tenant.get("dropped").asLong());
                long dropped = 0;
                for (final JsonNode drop : tenant.get("drops"))
                {
                    assertTrue(drop.get("stage").asText().equals(name) || drop.get("stage").asText().startsWith(name + "-"), drop::toString);
                    dropped += drop.get("packets").asLong();
                }
                assertEquals(dropped, tenant.get("dropped").asLong());
                sum += tenant.get("in").asLong();
                assertEquals(sumOwn(json.get("alerts"), "vnf", "count", name), tenant.get("alerts").asLong(), "alerts of its VNFs");
                assertEquals(sumOwn(json.get("state").get("tables"), "table", "entries", name), tenant.get("entries").asLong(),
                    "entries of its tables");
                assertTrue(tenant.get("entries").asLong() > 0, tenant::toPrettyString);
                final JsonNode latency = tenant.get("latency_us");
                assertTrue(latency != null && latency.get("p50").asDouble() > 0, tenant::toPrettyString);
                assertTrue(latency.get("p50").asDouble() <= latency.get("p99").asDouble()
                    && latency.get("p99").asDouble() <= latency.get("p999").asDouble()
                    && latency.get("p999").asDouble() <= latency.get("max").asDouble(), latency::toString);
            }
            final JsonNode shopDrops = tenants.get(1).get("drops");
            assertEquals("shop:rate-limit", shopDrops.get(0).get("stage").asText() + ":" + shopDrops.get(0).get("reason").asText(),
                shopDrops::toPrettyString);
            long noTenant = 0;
            for (final JsonNode drop : json.get("drops"))
            {
                if (drop.get("stage").asText().equals("ingress") && drop.get("reason").asText().equals("no-tenant"))
                {
                    noTenant = drop.get("packets").asLong();
                }
            }
            assertTrue(noTenant > 0, json.get("drops")::toPrettyString);
            assertEquals(20_000, sum + noTenant, "every packet goes to one tenant or is dropped as no-tenant");

            final Captured text = Captured.run("run", "tenants", "--generate", "packets=2000,hosts=1200,seed=42", "--executor", executor,
                "--no-progress");
            assertEquals(0, text.status(), text.err());
            assertTrue(text.out().contains("\ntenants\n  web "), text.out());
            assertTrue(text.out().lines().anyMatch(l -> l.startsWith("  web ") && l.contains(" alerts, ") && l.contains(" entries")
                && l.contains("latency p50 ")), text.out());
            assertTrue(text.out().contains("\n  shop ") && text.out().contains("\n  secure "), text.out());
        }
    }

    /** @return the sum of {@code count} over the items whose {@code owner} (up to its first dot) is tenant {@code name}'s limiter or VNFs. */
    private static long sumOwn(final JsonNode items, final String owner, final String count, final String name)
    {
        long sum = 0;
        for (final JsonNode item : items)
        {
            final String stage = item.get(owner).asText().split("\\.", 2)[0];
            if (stage.equals(name) || stage.startsWith(name + "-"))
            {
                sum += item.get(count).asLong();
            }
        }
        return sum;
    }

    private static Schema schema() throws IOException
    {
        try (InputStream in = ReportJson.class.getResourceAsStream(ReportJson.SCHEMA_RESOURCE))
        {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }
    }
}
