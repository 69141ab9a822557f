package io.transnfv.cli;

import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfConfig;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import io.transnfv.vnf.instance.TableCatalog;
import io.transnfv.vnf.instance.VnfInstance;
import picocli.CommandLine.Command;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code transnfv vnfs}: lists the VNF types, their parameters and their state checkers. */
@Command(name = "vnfs", mixinStandardHelpOptions = true, description = "List the VNF types a chain can use, with their parameters"
    + " (name, type, allowed range, default) and the state checkers they declare.")
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
            for (final VnfInstance.Checker checker : checkers(factory))
            {
                System.out.printf(Locale.ROOT, "    checker %-28s %s%n", checker.name(), checker.description());
            }
        }
        return 0;
    }

    /** @return the checkers a VNF of this type declares with its default parameters; none if it needs parameters. */
    private static List<VnfInstance.Checker> checkers(final VnfFactory factory)
    {
        try
        {
            return new VnfInstance(factory.type(), factory.type(), factory.create(VnfConfig.defaults(factory.params())), new TableCatalog())
                .checkers();
        }
        catch (final RuntimeException e)
        {
            // a type without defaults for every parameter cannot be set up here; its checkers show in a chain's run
            return List.of();
        }
    }
}
