package io.transnfv.vnf.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A VNF instance's validated parameters. Built from raw values (as YAML or a command line
 * gives them: strings, numbers, booleans, lists) against the type's {@link ParamSpec}s;
 * every value is converted and range-checked here, once, at setup. Converted types: INT →
 * Integer, LONG → Long, DOUBLE → Double, BOOLEAN → Boolean, STRING → String, DURATION →
 * Long nanoseconds, STRING_LIST → List&lt;String&gt;, INT_LIST → List&lt;Integer&gt;.
 */
public final class VnfConfig
{
    private final Map<String, Object> values;

    private VnfConfig(final Map<String, Object> values)
    {
        this.values = values;
    }

    /**
     * @param specs the parameters the VNF type accepts.
     * @param raw   the values given, by name.
     * @return the validated configuration, defaults filled in.
     * @throws VnfConfigException naming the first parameter that is unknown, missing or bad.
     */
    public static VnfConfig of(final List<ParamSpec> specs, final Map<String, ?> raw)
    {
        final Map<String, ParamSpec> byName = new LinkedHashMap<>();
        for (final ParamSpec spec : specs)
        {
            byName.put(spec.name(), spec);
        }
        for (final String name : raw.keySet())
        {
            if (!byName.containsKey(name))
            {
                throw new VnfConfigException(name, "unknown parameter '" + name + "'; known: " + String.join(", ", byName.keySet()));
            }
        }
        final Map<String, Object> values = new LinkedHashMap<>();
        for (final ParamSpec spec : specs)
        {
            final Object given = raw.get(spec.name());
            if (given == null)
            {
                if (spec.required())
                {
                    throw new VnfConfigException(spec.name(),
                        "missing parameter '" + spec.name() + "': " + spec.kind().expected() + " (" + spec.description() + ")");
                }
                values.put(spec.name(), spec.defaultValue());
            }
            else
            {
                values.put(spec.name(), convert(spec, given));
            }
        }
        return new VnfConfig(Collections.unmodifiableMap(values));
    }

    /**
     * @param specs   the parameters the VNF type accepts.
     * @param changes new values, by name, as {@link #of} takes them.
     * @return this configuration with {@code changes} converted and range-checked as {@link #of}
     *         does, with the same messages.
     * @throws VnfConfigException naming the first parameter that is unknown or bad.
     */
    public VnfConfig with(final List<ParamSpec> specs, final Map<String, ?> changes)
    {
        final Map<String, ParamSpec> byName = new LinkedHashMap<>();
        for (final ParamSpec spec : specs)
        {
            byName.put(spec.name(), spec);
        }
        final Map<String, Object> next = new LinkedHashMap<>(values);
        for (final Map.Entry<String, ?> change : changes.entrySet())
        {
            final ParamSpec spec = byName.get(change.getKey());
            if (spec == null)
            {
                throw new VnfConfigException(change.getKey(), "unknown parameter '" + change.getKey() + "'; known: "
                    + String.join(", ", byName.keySet()));
            }
            next.put(spec.name(), convert(spec, change.getValue()));
        }
        return new VnfConfig(Collections.unmodifiableMap(next));
    }

    /** @return the configuration with every default, for a type whose parameters are all optional. */
    public static VnfConfig defaults(final List<ParamSpec> specs)
    {
        return of(specs, Map.of());
    }

    /** @return an INT parameter. */
    public int getInt(final String name)
    {
        return (Integer)get(name);
    }

    /** @return a LONG parameter. */
    public long getLong(final String name)
    {
        return (Long)get(name);
    }

    /** @return a DOUBLE parameter. */
    public double getDouble(final String name)
    {
        return (Double)get(name);
    }

    /** @return a BOOLEAN parameter. */
    public boolean getBoolean(final String name)
    {
        return (Boolean)get(name);
    }

    /** @return a STRING parameter. */
    public String getString(final String name)
    {
        return (String)get(name);
    }

    /** @return a DURATION parameter in nanoseconds. */
    public long getDurationNs(final String name)
    {
        return (Long)get(name);
    }

    /** @return a STRING_LIST parameter. */
    @SuppressWarnings("unchecked")
    public List<String> getStringList(final String name)
    {
        return (List<String>)get(name);
    }

    /** @return an INT_LIST parameter. */
    @SuppressWarnings("unchecked")
    public List<Integer> getIntList(final String name)
    {
        return (List<Integer>)get(name);
    }

    /** @return every parameter with its converted value, in declaration order. */
    public Map<String, Object> asMap()
    {
        return values;
    }

    private Object get(final String name)
    {
        if (!values.containsKey(name))
        {
            throw new IllegalArgumentException("no parameter '" + name + "' declared");
        }
        return values.get(name);
    }

    private static Object convert(final ParamSpec spec, final Object given)
    {
        try
        {
            final Object value = switch (spec.kind())
            {
                case INT -> Math.toIntExact(toLong(given));
                case LONG -> toLong(given);
                case DOUBLE -> toDouble(given);
                case BOOLEAN -> toBoolean(given);
                case STRING -> scalarString(given);
                case DURATION -> parseDurationNs(scalarString(given));
                case STRING_LIST -> toList(given, false);
                case INT_LIST -> toList(given, true);
            };
            checkRange(spec, value);
            return value;
        }
        catch (final VnfConfigException e)
        {
            throw e;
        }
        catch (final RuntimeException e)
        {
            throw new VnfConfigException(spec.name(),
                "bad value '" + given + "' for '" + spec.name() + "': expected " + spec.kind().expected());
        }
    }

    private static void checkRange(final ParamSpec spec, final Object value)
    {
        if (value instanceof List<?> list)
        {
            for (final Object item : list)
            {
                checkRange(spec, item);
            }
            return;
        }
        if (value instanceof Number n)
        {
            final double d = n.doubleValue();
            if (d < spec.min() || d > spec.max())
            {
                throw new VnfConfigException(spec.name(), "'" + spec.name() + "' = " + value + " is out of range: write a value in ["
                    + formatBound(spec.min()) + ", " + formatBound(spec.max()) + "]"
                    + (spec.kind() == ParamKind.DURATION ? " nanoseconds" : ""));
            }
        }
    }

    private static String formatBound(final double d)
    {
        if (Double.isInfinite(d))
        {
            return d > 0 ? "+inf" : "-inf";
        }
        return d == Math.rint(d) ? Long.toString((long)d) : Double.toString(d);
    }

    private static long toLong(final Object given)
    {
        if (given instanceof Integer || given instanceof Long || given instanceof Short)
        {
            return ((Number)given).longValue();
        }
        if (given instanceof Number n)
        {
            final double d = n.doubleValue();
            if (d != Math.rint(d))
            {
                throw new IllegalArgumentException("not whole");
            }
            return (long)d;
        }
        return Long.parseLong(scalarString(given).replace("_", ""));
    }

    private static double toDouble(final Object given)
    {
        if (given instanceof Number n)
        {
            return n.doubleValue();
        }
        return Double.parseDouble(scalarString(given));
    }

    private static boolean toBoolean(final Object given)
    {
        if (given instanceof Boolean b)
        {
            return b;
        }
        final String s = scalarString(given).toLowerCase(Locale.ROOT);
        if (s.equals("true") || s.equals("false"))
        {
            return Boolean.parseBoolean(s);
        }
        throw new IllegalArgumentException("not a boolean");
    }

    private static String scalarString(final Object given)
    {
        if (given instanceof List<?> || given instanceof Map<?, ?>)
        {
            throw new IllegalArgumentException("not a scalar");
        }
        return given.toString().trim();
    }

    private static List<?> toList(final Object given, final boolean ints)
    {
        final List<?> items = given instanceof List<?> l ? l : splitCommas(scalarString(given));
        final List<Object> out = new ArrayList<>(items.size());
        for (final Object item : items)
        {
            out.add(ints ? Math.toIntExact(toLong(item)) : scalarString(item));
        }
        return Collections.unmodifiableList(out);
    }

    private static List<String> splitCommas(final String s)
    {
        final List<String> out = new ArrayList<>();
        for (final String part : s.split(","))
        {
            if (!part.isBlank())
            {
                out.add(part.trim());
            }
        }
        return out;
    }

    /**
     * Parses a duration such as {@code 30s}, {@code 250ms}, {@code 100us}, {@code 5m},
     * {@code 1h} or {@code 500ns}.
     *
     * @return the duration in nanoseconds.
     * @throws IllegalArgumentException if the text is not a duration with a unit.
     */
    public static long parseDurationNs(final String text)
    {
        final String s = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == '_'))
        {
            i++;
        }
        if (i == 0 || i == s.length())
        {
            throw new IllegalArgumentException("duration needs a number and a unit (ns, us, ms, s, m, h): " + text);
        }
        final double amount = Double.parseDouble(s.substring(0, i).replace("_", ""));
        final long unitNs = switch (s.substring(i).trim())
        {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new IllegalArgumentException("unknown duration unit in " + text + " (use ns, us, ms, s, m, h)");
        };
        return Math.round(amount * unitNs);
    }
}
