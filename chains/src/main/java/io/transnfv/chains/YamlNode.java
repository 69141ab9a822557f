package io.transnfv.chains;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a parsed YAML document that remembers where it was written, so every error
 * can point at a line and column. Built once per load by {@link YamlTreeReader}.
 */
abstract class YamlNode
{
    private final int line;
    private final int column;

    YamlNode(final int line, final int column)
    {
        this.line = line;
        this.column = column;
    }

    /** @return the 1-based line where the node starts. */
    final int line()
    {
        return line;
    }

    /** @return the 1-based column where the node starts. */
    final int column()
    {
        return column;
    }

    /** @return what the node is, for messages: "a map", "a list", "the text 'x'"... */
    abstract String describe();

    /** @return the node as plain Java values (String, Integer, Long, Double, Boolean, List, Map), null for null. */
    abstract Object toPlain();

    /** @return the node in YAML flow style, for messages and {@code whenText}. */
    abstract String toFlowText();

    /** A scalar: text, number, boolean or null, as typed by the YAML parser. */
    static final class Scalar extends YamlNode
    {
        /** How the parser typed the scalar. */
        enum Kind
        {
            STRING, INT, FLOAT, BOOLEAN, NULL
        }

        private final Kind kind;
        private final String text;
        private final Object value;

        Scalar(final int line, final int column, final Kind kind, final String text, final Object value)
        {
            super(line, column);
            this.kind = kind;
            this.text = text;
            this.value = value;
        }

        Kind kind()
        {
            return kind;
        }

        /** @return the scalar as written (without quotes). */
        String text()
        {
            return text;
        }

        boolean isNull()
        {
            return kind == Kind.NULL;
        }

        @Override
        String describe()
        {
            return switch (kind)
            {
                case NULL -> "no value";
                case STRING -> "'" + text + "'";
                default -> text;
            };
        }

        @Override
        Object toPlain()
        {
            return value;
        }

        @Override
        String toFlowText()
        {
            return kind == Kind.NULL ? "null" : text;
        }
    }

    /** A mapping; keys are unique (the reader reports duplicates). */
    static final class MapNode extends YamlNode
    {
        private final Map<String, Entry> entries = new LinkedHashMap<>();

        MapNode(final int line, final int column)
        {
            super(line, column);
        }

        /** @return false (and keeps the first) if the key was already present. */
        boolean put(final Entry entry)
        {
            return entries.putIfAbsent(entry.key(), entry) == null;
        }

        /** @return the entry under {@code key}, or null. */
        Entry entry(final String key)
        {
            return entries.get(key);
        }

        /** @return the value under {@code key}, or null if absent. */
        YamlNode get(final String key)
        {
            final Entry entry = entries.get(key);
            return entry == null ? null : entry.value();
        }

        /** @return the entries in document order. */
        Iterable<Entry> entries()
        {
            return entries.values();
        }

        boolean isEmpty()
        {
            return entries.isEmpty();
        }

        @Override
        String describe()
        {
            return "a map";
        }

        @Override
        Object toPlain()
        {
            final Map<String, Object> out = new LinkedHashMap<>();
            for (final Entry entry : entries.values())
            {
                out.put(entry.key(), entry.value().toPlain());
            }
            return out;
        }

        @Override
        String toFlowText()
        {
            final StringBuilder out = new StringBuilder("{ ");
            String separator = "";
            for (final Entry entry : entries.values())
            {
                out.append(separator).append(entry.key()).append(": ").append(entry.value().toFlowText());
                separator = ", ";
            }
            return out.append(" }").toString();
        }
    }

    /** A sequence. */
    static final class SeqNode extends YamlNode
    {
        private final List<YamlNode> items = new ArrayList<>();

        SeqNode(final int line, final int column)
        {
            super(line, column);
        }

        void add(final YamlNode item)
        {
            items.add(item);
        }

        List<YamlNode> items()
        {
            return items;
        }

        @Override
        String describe()
        {
            return "a list";
        }

        @Override
        Object toPlain()
        {
            final List<Object> out = new ArrayList<>(items.size());
            for (final YamlNode item : items)
            {
                out.add(item.toPlain());
            }
            return out;
        }

        @Override
        String toFlowText()
        {
            final StringBuilder out = new StringBuilder("[");
            String separator = "";
            for (final YamlNode item : items)
            {
                out.append(separator).append(item.toFlowText());
                separator = ", ";
            }
            return out.append(']').toString();
        }
    }

    /**
     * A map entry: the key with its own position, and the value.
     *
     * @param key       the key text.
     * @param keyLine   1-based line of the key.
     * @param keyColumn 1-based column of the key.
     * @param value     the value node.
     */
    record Entry(String key, int keyLine, int keyColumn, YamlNode value)
    {
    }
}
