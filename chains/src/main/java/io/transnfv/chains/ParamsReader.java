package io.transnfv.chains;

import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one VNF's {@code params:} map against its type's {@link ParamSpec}s: unknown
 * parameters, missing required ones and every bad value are reported, each at its own key
 * or value. Setup only.
 */
final class ParamsReader
{
    private final ChainErrors errors;

    /** @param errors where problems are added. */
    ParamsReader(final ChainErrors errors)
    {
        this.errors = errors;
    }

    /**
     * @param vnf     the VNF's map, where a missing parameter is reported.
     * @param params  its {@code params:} map, or null if it has none.
     * @param factory its type.
     * @param where   how messages name the VNF, e.g. {@code VNF 'nat'}.
     * @return the configuration, or null if an error was added.
     */
    VnfConfig read(final YamlNode.MapNode vnf, final YamlNode.MapNode params, final VnfFactory factory, final String where)
    {
        final Map<String, ParamSpec> specs = new LinkedHashMap<>();
        for (final ParamSpec spec : factory.params())
        {
            specs.put(spec.name(), spec);
        }
        final Map<String, Object> raw = new LinkedHashMap<>();
        boolean ok = true;
        if (params != null)
        {
            for (final YamlNode.Entry entry : params.entries())
            {
                final ParamSpec spec = specs.get(entry.key());
                if (spec == null)
                {
                    ok = false;
                    errors.addAtKey(entry, "unknown parameter '" + entry.key() + "' for VNF type '" + factory.type() + "'",
                        specs.isEmpty() ? "type '" + factory.type() + "' takes no parameters: remove it"
                            : ChainErrors.suggestion(entry.key(), specs.keySet(), "parameters"));
                    continue;
                }
                if (entry.value() instanceof YamlNode.Scalar s && s.isNull())
                {
                    ok = false;
                    errors.add(entry.value(), "no value for parameter '" + entry.key() + "'",
                        fix(factory, entry.key()) + (spec.required() ? "" : ", or remove the line to use the default"));
                    continue;
                }
                final Object value = entry.value().toPlain();
                try
                {
                    VnfConfig.of(List.of(asOptional(spec)), Map.of(entry.key(), value));
                    raw.put(entry.key(), value);
                }
                catch (final VnfConfigException e)
                {
                    ok = false;
                    errors.add(entry.value(), e.getMessage(), fix(factory, entry.key()));
                }
            }
        }
        for (final ParamSpec spec : specs.values())
        {
            if (spec.required() && (params == null || params.get(spec.name()) == null))
            {
                ok = false;
                errors.add(vnf, where + " is missing parameter '" + spec.name() + "' (" + spec.description() + ")",
                    "add '" + spec.name() + ": <" + spec.kind().expected() + ">' under 'params:'");
            }
        }
        if (!ok)
        {
            return null;
        }
        try
        {
            return VnfConfig.of(factory.params(), raw);
        }
        catch (final VnfConfigException e)
        {
            errors.add(at(e, params, vnf), e.getMessage(), fix(factory, e.param()));
            return null;
        }
    }

    /** @return the value of the parameter {@code e} names if the chain wrote it, else the VNF. */
    static YamlNode at(final VnfConfigException e, final YamlNode.MapNode params, final YamlNode.MapNode vnf)
    {
        return e.param() != null && params != null && params.get(e.param()) != null ? params.get(e.param()) : vnf;
    }

    /** @return what to write for {@code param} of {@code factory}'s type: its kind, range and meaning. */
    static String fix(final VnfFactory factory, final String param)
    {
        if (param == null)
        {
            return "check the parameters of type '" + factory.type() + "' in docs/chain-yaml.md";
        }
        for (final ParamSpec spec : factory.params())
        {
            if (spec.name().equals(param))
            {
                final StringBuilder fix = new StringBuilder("write ").append(spec.kind().expected());
                final boolean hasMin = Double.isFinite(spec.min());
                final boolean hasMax = Double.isFinite(spec.max());
                if (hasMin || hasMax)
                {
                    fix.append("; allowed: [").append(hasMin ? bound(spec.min()) : "-inf").append(", ")
                        .append(hasMax ? bound(spec.max()) : "+inf").append(']');
                    if (spec.kind() == ParamKind.DURATION)
                    {
                        fix.append(" nanoseconds");
                    }
                }
                return fix.append(" ('").append(spec.name()).append("': ").append(spec.description()).append(')')
                    .toString();
            }
        }
        return "check the parameters of type '" + factory.type() + "' in docs/chain-yaml.md";
    }

    static ParamSpec asOptional(final ParamSpec spec)
    {
        // A stand-in default lets VnfConfig check one value at a time, so every bad value is reported.
        return spec.required()
            ? new ParamSpec(spec.name(), spec.kind(), false, "", spec.min(), spec.max(), spec.description()) : spec;
    }

    private static String bound(final double d)
    {
        return d == Math.rint(d) ? Long.toString((long)d) : Double.toString(d);
    }
}
