package io.transnfv.chains;

import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfConfigException;
import io.transnfv.vnf.api.VnfFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a change of a running VNF's parameters ({@code POST /params/<vnf>}, a change script)
 * as the chain validator checks {@code params:}: an unknown name, a missing value and a bad value
 * get the validator's own message and fix line. A parameter its type does not declare
 * {@link ParamSpec#whileRunning() live} is refused. Any thread.
 */
public final class LiveParams
{
    /** What is wrong with a change. */
    public enum Kind
    {
        /** The type has no parameter of that name. */
        UNKNOWN_PARAMETER,
        /** The parameter exists but cannot change while the chain runs. */
        NOT_LIVE,
        /** The value is missing, of the wrong type, out of range, or refused by the VNF. */
        BAD_VALUE
    }

    /**
     * A change refused.
     *
     * @param kind      what is wrong.
     * @param parameter the parameter, or null if the problem is not one parameter's.
     * @param message   what is wrong, as the chain validator says it.
     * @param fix       what to do, as the validator's {@code fix:} line says it.
     */
    public record Problem(Kind kind, String parameter, String message, String fix)
    {
    }

    private LiveParams()
    {
    }

    /** @return the names of the parameters of {@code factory}'s type that may change while a chain runs. */
    public static List<String> liveNames(final VnfFactory factory)
    {
        return factory.params().stream().filter(ParamSpec::live).map(ParamSpec::name).toList();
    }

    /**
     * @param factory the VNF's type.
     * @param vnf     the VNF instance's name, for messages.
     * @param values  the new values by name, as chain YAML (or JSON) writes them.
     * @return the first problem, in the order the values were given, or empty if every value passes.
     */
    public static Optional<Problem> check(final VnfFactory factory, final String vnf, final Map<String, ?> values)
    {
        final Map<String, ParamSpec> specs = new LinkedHashMap<>();
        for (final ParamSpec spec : factory.params())
        {
            specs.put(spec.name(), spec);
        }
        if (values.isEmpty())
        {
            return Optional.of(new Problem(Kind.BAD_VALUE, null, "no parameter to change",
                live(factory, "send a JSON object of new values, e.g. {\"name\": value}")));
        }
        for (final Map.Entry<String, ?> entry : values.entrySet())
        {
            final String name = entry.getKey();
            final ParamSpec spec = specs.get(name);
            if (spec == null)
            {
                return Optional.of(new Problem(Kind.UNKNOWN_PARAMETER, name, "unknown parameter '" + name + "' for VNF type '"
                    + factory.type() + "'", specs.isEmpty() ? "type '" + factory.type() + "' takes no parameters"
                    : ChainErrors.suggestion(name, specs.keySet(), "parameters")));
            }
            if (!spec.live())
            {
                return Optional.of(new Problem(Kind.NOT_LIVE, name, "parameter '" + name + "' of VNF '" + vnf
                    + "' cannot change while the chain runs", live(factory,
                    "change it in the chain's YAML and start the run again")));
            }
            if (entry.getValue() == null)
            {
                return Optional.of(new Problem(Kind.BAD_VALUE, name, "no value for parameter '" + name + "'",
                    ParamsReader.fix(factory, name)));
            }
            try
            {
                VnfConfig.of(List.of(ParamsReader.asOptional(spec)), Map.of(name, entry.getValue()));
            }
            catch (final VnfConfigException e)
            {
                return Optional.of(new Problem(Kind.BAD_VALUE, name, e.getMessage(), ParamsReader.fix(factory, name)));
            }
        }
        return Optional.empty();
    }

    /**
     * @param factory the VNF's type.
     * @param vnf     the VNF instance's name, for the message.
     * @param refused what the VNF (or the configuration as a whole) refused when the change was prepared.
     * @return the problem, worded as the validator words a VNF's refusal of its {@code params:}.
     */
    public static Problem refused(final VnfFactory factory, final String vnf, final VnfConfigException refused)
    {
        return new Problem(Kind.BAD_VALUE, refused.param(), "VNF '" + vnf + "': " + refused.getMessage(),
            ParamsReader.fix(factory, refused.param()));
    }

    private static String live(final VnfFactory factory, final String first)
    {
        final List<String> live = liveNames(factory);
        return first + "; " + (live.isEmpty() ? "type '" + factory.type() + "' has no parameter that may change while it runs"
            : "the parameters of type '" + factory.type() + "' that may change while it runs: " + String.join(", ", live));
    }
}
