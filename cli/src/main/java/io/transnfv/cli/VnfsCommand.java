package io.transnfv.cli;

import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import picocli.CommandLine.Command;

import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code transnfv vnfs}: lists the VNF types and their parameters. */
@Command(name = "vnfs", mixinStandardHelpOptions = true, description = "List the VNF types a chain can use, with their parameters: name, type, allowed range, default.")
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
                    p.required() ? "(required) " : "(default " + ParameterText.value(p.kind(), p.defaultValue()) + ") ",
                    p.description());
            }
        }
        return 0;
    }
}
