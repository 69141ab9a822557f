package io.transnfv.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.transnfv.chains.LiveParams;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.pipeline.ChainExecutor;
import io.transnfv.vnf.api.VnfConfigException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A change script: the VNF parameters a run changed and the packet position each took effect at,
 * as {@code run --param-changes-out} writes it or as a run report's {@code param_changes} holds
 * it, read for {@code verify --param-changes} and given to every executor of the check
 * ({@link ParamChanges#schedule}), so the oracle and the engine change at the same packets.
 */
final class ParamChangeScript
{
    /** One request as it was made: some parameters of one VNF at one packet position. */
    private record Step(long atPacket, String vnf, Map<String, Object> values)
    {
    }

    private final List<Step> steps;

    private ParamChangeScript(final List<Step> steps)
    {
        this.steps = steps;
    }

    /** @return how many parameter changes the script holds. */
    int size()
    {
        return steps.stream().mapToInt(s -> s.values().size()).sum();
    }

    /**
     * Reads {@code file} (a change script or a run report) and checks it against {@code chain} as
     * the control plane checks a change.
     *
     * @throws UsageProblem if the file is not a change script or a change does not fit the chain.
     * @throws IOException  if the file cannot be read.
     */
    static ParamChangeScript read(final Path file, final ChainSpec chain) throws IOException
    {
        FileProblems.checkReadable("--param-changes", file, "a change script (run --param-changes-out) or a run report");
        final JsonNode root;
        try
        {
            root = ReportJson.mapper().readTree(file.toFile());
        }
        catch (final IOException e)
        {
            throw new UsageProblem("--param-changes " + file + " is not JSON: " + e.getMessage().lines().findFirst().orElse(""),
                "give the file run --param-changes-out or --report wrote");
        }
        final JsonNode list = root == null ? null : root.get("param_changes");
        if (list == null && root != null && root.isObject() && root.has("schema_version"))
        {
            // a report of a run that changed nothing
            return new ParamChangeScript(List.of());
        }
        if (list == null || !list.isArray())
        {
            throw new UsageProblem("--param-changes " + file + " has no 'param_changes' list",
                "give the file run --param-changes-out or --report wrote");
        }
        final List<Step> steps = new ArrayList<>();
        long last = 0;
        for (int i = 0; i < list.size(); i++)
        {
            final JsonNode entry = list.get(i);
            final String where = "--param-changes " + file + ", change " + i;
            if (!entry.path("vnf").isTextual() || !entry.path("parameter").isTextual() || !entry.has("new_value")
                || !entry.path("at_packet").canConvertToLong() || entry.path("at_packet").asLong() < 0)
            {
                throw new UsageProblem(where + " needs 'vnf', 'parameter', 'new_value' and 'at_packet' (0 or more)",
                    "give the file run --param-changes-out or --report wrote");
            }
            final long at = entry.get("at_packet").asLong();
            if (at < last)
            {
                throw new UsageProblem(where + " is at packet " + at + ", before the change above it (" + last + ")",
                    "list the changes in packet order, as the run wrote them");
            }
            last = at;
            final String vnf = entry.get("vnf").asText();
            final Object value = ReportJson.mapper().treeToValue(entry.get("new_value"), Object.class);
            final Step previous = steps.isEmpty() ? null : steps.get(steps.size() - 1);
            if (previous != null && previous.atPacket() == at && previous.vnf().equals(vnf)
                && !previous.values().containsKey(entry.get("parameter").asText()))
            {
                previous.values().put(entry.get("parameter").asText(), value);
            }
            else
            {
                final Map<String, Object> values = new LinkedHashMap<>();
                values.put(entry.get("parameter").asText(), value);
                steps.add(new Step(at, vnf, values));
            }
        }
        for (final Step step : steps)
        {
            final VnfNode node = chain.vnfs().stream().filter(n -> n.name().equals(step.vnf())).findFirst()
                .orElseThrow(() -> new UsageProblem("--param-changes " + file + " changes VNF '" + step.vnf()
                    + "', which chain '" + chain.name() + "' does not have", "verify the chain the script was recorded with"));
            final Optional<LiveParams.Problem> problem = LiveParams.check(node.factory(), step.vnf(), step.values());
            if (problem.isPresent())
            {
                throw new UsageProblem("--param-changes " + file + ", at packet " + step.atPacket() + ", VNF '" + step.vnf()
                    + "': " + problem.get().message(), problem.get().fix());
            }
        }
        return new ParamChangeScript(List.copyOf(steps));
    }

    /**
     * Schedules every change on {@code executor}, before it runs.
     *
     * @throws UsageProblem if the executor takes no parameter changes or a VNF refuses a value.
     */
    void scheduleOn(final ChainExecutor executor)
    {
        if (steps.isEmpty())
        {
            return;
        }
        final ParamChanges changes = executor.paramChanges().orElseThrow(() -> new UsageProblem("the "
            + executor.describe() + " executor takes no parameter changes", "verify with the tpg executor"));
        for (final Step step : steps)
        {
            try
            {
                changes.schedule(step.atPacket(), step.vnf(), step.values());
            }
            catch (final VnfConfigException e)
            {
                final VnfNode node = executor.runtime().spec().vnfs().stream().filter(n -> n.name().equals(step.vnf()))
                    .findFirst().orElseThrow();
                final LiveParams.Problem problem = LiveParams.refused(node.factory(), step.vnf(), e);
                throw new UsageProblem("--param-changes, at packet " + step.atPacket() + ", VNF '" + step.vnf() + "': "
                    + problem.message(), problem.fix());
            }
        }
    }
}
