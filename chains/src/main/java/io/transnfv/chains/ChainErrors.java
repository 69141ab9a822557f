package io.transnfv.chains;

import java.util.Collection;
import java.util.List;

/**
 * Where the problems of one chain document are collected, and the checks of a node's shape
 * that every section reader shares. A failed check adds its {@link ChainError} here and
 * returns null (or a fallback), so a reader keeps going and one run reports every problem.
 *
 * <p>One instance per document, shared by the {@link YamlTreeReader} and the section
 * readers; setup only, not thread-safe.
 */
final class ChainErrors
{
    private final String source;
    private final List<ChainError> errors;

    /**
     * @param source the name errors carry (the file, or a source name).
     * @param errors where problems are added.
     */
    ChainErrors(final String source, final List<ChainError> errors)
    {
        this.source = source;
        this.errors = errors;
    }

    /** @return errors added so far; compare two counts to know whether a step added any. */
    int count()
    {
        return errors.size();
    }

    /** Adds a problem at {@code line:column}. */
    void add(final int line, final int column, final String message, final String fix)
    {
        errors.add(new ChainError(source, line, column, message, fix));
    }

    /** Adds a problem at the node. */
    void add(final YamlNode at, final String message, final String fix)
    {
        add(at.line(), at.column(), message, fix);
    }

    /** Adds a problem at the entry's key. */
    void addAtKey(final YamlNode.Entry entry, final String message, final String fix)
    {
        add(entry.keyLine(), entry.keyColumn(), message, fix);
    }

    /** Reports every key of {@code map} that is not {@code known}, with the closest known one. */
    void checkKeys(final YamlNode.MapNode map, final List<String> known, final String where)
    {
        for (final YamlNode.Entry entry : map.entries())
        {
            if (!known.contains(entry.key()))
            {
                addAtKey(entry, "unknown key '" + entry.key() + "' " + where, suggestion(entry.key(), known, "keys"));
            }
        }
    }

    /** @return the text under {@code key}, or null after reporting it missing or not text. */
    String requiredText(final YamlNode.MapNode map, final String key, final String owner, final String fix)
    {
        final YamlNode node = map.get(key);
        if (node == null)
        {
            add(map, owner + " is missing '" + key + "'", fix);
            return null;
        }
        final String text = scalarText(node);
        if (text == null || text.isBlank())
        {
            add(node, "'" + key + "' must be text, not " + node.describe(), fix);
            return null;
        }
        return text;
    }

    /** @return the node's text, or null after reporting that it is not a single value. */
    String optionalText(final YamlNode node, final String what)
    {
        final String text = scalarText(node);
        if (text == null)
        {
            add(node, what + " must be text, not " + node.describe(), "write a single value on the line");
        }
        return text;
    }

    /** @return the node as a map, or null after reporting what it is instead. */
    YamlNode.MapNode expectMap(final YamlNode node, final String what, final String fix)
    {
        if (node instanceof YamlNode.MapNode map)
        {
            return map;
        }
        add(node, what + " must be a map, not " + node.describe(), fix);
        return null;
    }

    /** @return the node as a list, or null after reporting what it is instead. */
    YamlNode.SeqNode expectSeq(final YamlNode node, final String what, final String fix)
    {
        if (node instanceof YamlNode.SeqNode seq)
        {
            return seq;
        }
        add(node, what + " must be a list, not " + node.describe(), fix);
        return null;
    }

    /**
     * @param note what the fix adds after the range, e.g. {@code " (0 = one per core)"}; may be empty.
     * @return the whole number the node holds if it lies in [min, max], else {@code fallback} after reporting it.
     */
    long boundedNumber(
        final YamlNode node, final String what, final long min, final long max, final String note, final long fallback)
    {
        final long value = wholeNumber(node);
        if (value == Long.MIN_VALUE || value < min || value > max)
        {
            add(node, "bad " + what + " " + node.describe(), "write a whole number in [" + min + ", " + max + "]" + note);
            return fallback;
        }
        return value;
    }

    /** @return true if the node is absent or written with no value. */
    static boolean isAbsent(final YamlNode node)
    {
        return node == null || node instanceof YamlNode.Scalar s && s.isNull();
    }

    /** @return the scalar's text, or null for a map, a list or null. */
    static String scalarText(final YamlNode node)
    {
        return node instanceof YamlNode.Scalar s && !s.isNull() ? s.text() : null;
    }

    /** @return the whole number the node holds (digits, '_' allowed), or Long.MIN_VALUE. */
    static long wholeNumber(final YamlNode node)
    {
        if (!(node instanceof YamlNode.Scalar s) || s.kind() == YamlNode.Scalar.Kind.NULL
            || s.kind() == YamlNode.Scalar.Kind.BOOLEAN || s.kind() == YamlNode.Scalar.Kind.FLOAT)
        {
            return Long.MIN_VALUE;
        }
        final String text = s.text().replace("_", "");
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9') || text.length() > 18)
        {
            return Long.MIN_VALUE;
        }
        return Long.parseLong(text);
    }

    /** @return the fix for a name that is not one of {@code known}: the closest one, or the list. */
    static String suggestion(final String given, final Collection<String> known, final String what)
    {
        final String closest = ClosestName.of(given, known);
        final String list = "known " + what + ": " + (known.isEmpty() ? "none" : String.join(", ", known));
        return closest == null ? "write one of the " + list : "did you mean '" + closest + "'? (" + list + ")";
    }
}
