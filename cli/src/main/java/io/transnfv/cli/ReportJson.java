package io.transnfv.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.transnfv.engine.control.ParamChanges;
import io.transnfv.engine.report.RunReport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a {@link RunReport}: every record component under its name in
 * snake_case, in declaration order, absent parts (null) left out. The schema it follows is
 * {@code docs/run-report.schema.json}, packaged beside this class; a test checks real
 * reports against it.
 */
final class ReportJson
{
    /** The schema's class path resource, next to this class. */
    static final String SCHEMA_RESOURCE = "run-report.schema.json";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build();

    private ReportJson()
    {
    }

    /** @return the report as indented JSON. */
    static String toJson(final RunReport report) throws JsonProcessingException
    {
        return MAPPER.writeValueAsString(report);
    }

    /** @return {@code verify}'s report as indented JSON, in the same conventions (snake_case, nulls left out). */
    static String toJson(final VerifyReport report) throws JsonProcessingException
    {
        return MAPPER.writeValueAsString(report);
    }

    /**
     * Writes a change script: {@code {"param_changes": [...]}}, the report's own list, which
     * {@code verify --param-changes} reads (as it reads a whole report).
     */
    static void writeParamChanges(final List<ParamChanges.Applied> changes, final Path file) throws IOException
    {
        MAPPER.writeValue(file.toFile(), Map.of("param_changes", changes));
    }

    /** @return the mapper reports are written with, for reading them back. */
    static ObjectMapper mapper()
    {
        return MAPPER;
    }

    /** Writes the report as indented JSON to {@code file}. */
    static void write(final RunReport report, final Path file) throws IOException
    {
        MAPPER.writeValue(file.toFile(), report);
    }
}
