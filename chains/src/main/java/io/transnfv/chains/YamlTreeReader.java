package io.transnfv.chains;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import java.io.IOException;

/**
 * Reads one YAML document into {@link YamlNode}s with Jackson's streaming YAML parser, so
 * each node keeps the line and column of its first token. Reports syntax errors, duplicate
 * keys, aliases and extra documents as {@link ChainError}s. Setup only; not thread-safe.
 */
final class YamlTreeReader
{
    private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

    private final ChainErrors errors;

    /** @param errors where problems are added. */
    YamlTreeReader(final ChainErrors errors)
    {
        this.errors = errors;
    }

    /**
     * @param yaml the document.
     * @return the root node, or null if the text is empty or not valid YAML (an error was added).
     */
    YamlNode read(final String yaml)
    {
        try (JsonParser parser = FACTORY.createParser(yaml))
        {
            final JsonToken first = parser.nextToken();
            if (first == null)
            {
                error(1, 1, "the chain file is empty", "start with 'name:' and 'vnfs:' (see docs/chain-yaml.md)");
                return null;
            }
            final YamlNode root = readValue(parser, first);
            final JsonToken extra = parser.nextToken();
            if (extra != null)
            {
                final JsonLocation at = parser.currentTokenLocation();
                error(at.getLineNr(), at.getColumnNr(), "a second YAML document in the chain file",
                    "put one chain per file; remove the '---' line and what follows it");
            }
            return root;
        }
        catch (final JsonProcessingException e)
        {
            syntaxError(e);
            return null;
        }
        catch (final IOException e)
        {
            error(1, 1, "cannot read the chain: " + e.getMessage(), "");
            return null;
        }
    }

    private YamlNode readValue(final JsonParser parser, final JsonToken token) throws IOException
    {
        final JsonLocation at = parser.currentTokenLocation();
        final int line = at.getLineNr();
        final int column = at.getColumnNr();
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias())
        {
            error(line, column, "YAML aliases (*" + parser.getText() + ") are not supported in chain files",
                "write the value out in full");
            return new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.NULL, "", null);
        }
        return switch (token)
        {
            case START_OBJECT -> readMap(parser, line, column);
            case START_ARRAY -> readSeq(parser, line, column);
            case VALUE_STRING -> new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.STRING, parser.getText(),
                parser.getText());
            case VALUE_NUMBER_INT -> new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.INT, parser.getText(),
                integerValue(parser));
            case VALUE_NUMBER_FLOAT -> new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.FLOAT, parser.getText(),
                parser.getDoubleValue());
            case VALUE_TRUE, VALUE_FALSE -> new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.BOOLEAN,
                parser.getText(), token == JsonToken.VALUE_TRUE);
            case VALUE_NULL -> new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.NULL, "", null);
            default -> new YamlNode.Scalar(line, column, YamlNode.Scalar.Kind.STRING, parser.getText(), parser.getText());
        };
    }

    private static Object integerValue(final JsonParser parser) throws IOException
    {
        return switch (parser.getNumberType())
        {
            case INT -> parser.getIntValue();
            case LONG -> parser.getLongValue();
            default -> parser.getBigIntegerValue().toString();
        };
    }

    private YamlNode.MapNode readMap(final JsonParser parser, final int line, final int column) throws IOException
    {
        final YamlNode.MapNode map = new YamlNode.MapNode(line, column);
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME)
        {
            final JsonLocation keyAt = parser.currentTokenLocation();
            final String key = parser.currentName();
            final YamlNode value = readValue(parser, parser.nextToken());
            final YamlNode.Entry entry = new YamlNode.Entry(key, keyAt.getLineNr(), keyAt.getColumnNr(), value);
            if (!map.put(entry))
            {
                final YamlNode.Entry first = map.entry(key);
                error(entry.keyLine(), entry.keyColumn(),
                    "duplicate key '" + key + "' (first written at " + first.keyLine() + ":" + first.keyColumn() + ")",
                    "keep one '" + key + ":' in this map");
            }
        }
        if (token != JsonToken.END_OBJECT)
        {
            throw new IllegalStateException("unexpected " + token + " in a YAML map");
        }
        return map;
    }

    private YamlNode.SeqNode readSeq(final JsonParser parser, final int line, final int column) throws IOException
    {
        final YamlNode.SeqNode seq = new YamlNode.SeqNode(line, column);
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY)
        {
            if (token == null)
            {
                throw new IllegalStateException("unterminated YAML list");
            }
            seq.add(readValue(parser, token));
        }
        return seq;
    }

    private void syntaxError(final JsonProcessingException e)
    {
        if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null)
        {
            final Mark mark = marked.getProblemMark();
            final String context = marked.getContext() == null ? "" : marked.getContext() + ": ";
            error(mark.getLine() + 1, mark.getColumn() + 1, "YAML syntax error: " + context + marked.getProblem(),
                "check the indentation and the ':' and '-' around this point; quote text containing ': ' or '#'");
            return;
        }
        final JsonLocation at = e.getLocation();
        final int line = at == null ? 1 : Math.max(1, at.getLineNr());
        final int column = at == null ? 1 : Math.max(1, at.getColumnNr());
        error(line, column, "YAML syntax error: " + e.getOriginalMessage(),
            "check the indentation and the ':' and '-' around this point");
    }

    private void error(final int line, final int column, final String message, final String fix)
    {
        errors.add(line, column, message, fix);
    }
}
