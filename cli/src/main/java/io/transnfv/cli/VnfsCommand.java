package io.transnfv.cli;

import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.TableSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import picocli.CommandLine.Command;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code transnfv vnfs}: lists the VNF types, their parameters, their state checkers and the shared table roles they declare. */
@Command(name = "vnfs", mixinStandardHelpOptions = true, description = "List the VNF types a chain can use, with their parameters"
    + " (name, type, allowed range, default), the state checkers they declare and the roles a chain may bind to a shared table.")
final class VnfsCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        for (final VnfFactory factory : VnfRegistry.load().types().values())
        {
            System.out.println(factory.type());
            System.out.println("  " + factory.description());
            for (final ParamSpec p : factory.params())
            {
                System.out.printf(Locale.ROOT, "    %-20s %-12s %-13s %s%s%n", p.name(), p.kind().name().toLowerCase(Locale.ROOT),
                    ParameterText.range(p),
                    (p.required() ? "(required) " : "(default " + ParameterText.value(p.kind(), p.defaultValue()) + ") ")
                        + (p.live() ? "(live: POST /params/<vnf>) " : ""),
                    p.description());
            }
            final VnfInstance instance = instance(factory);
            for (final VnfInstance.Checker checker : instance == null ? List.<VnfInstance.Checker>of() : instance.checkers())
            {
                System.out.printf(Locale.ROOT, "    checker %-28s %s%n", checker.name(), checker.description());
            }
            for (final TableSpec role : instance == null ? List.<TableSpec>of() : instance.roles())
            {
                System.out.printf(Locale.ROOT, "    shared role %-24s %s keys: %s%n", role.name(), role.keyKind().name().toLowerCase(Locale.ROOT),
                    role.description());
            }
        }
        return 0;
    }

    /** @return a VNF of this type set up with its default parameters, for its checkers and shared table roles; null if it needs parameters. */
    private static VnfInstance instance(final VnfFactory factory)
    {
        try
        {
            return new VnfInstance(factory.type(), factory.type(), factory.create(VnfConfig.defaults(factory.params())), new TableCatalog());
        }
        catch (final RuntimeException e)
        {
            // a type without defaults for every parameter cannot be set up here; its checkers show in a chain's run
            return null;
        }
    }
}
