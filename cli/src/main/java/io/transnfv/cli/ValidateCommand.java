package io.transnfv.cli;

import io.transnfv.engine.batch.BatchMemory;
import io.transnfv.engine.chain.ChainSpec;
import io.transnfv.engine.chain.EdgeSpec;
import io.transnfv.engine.chain.RunSettings;
import io.transnfv.engine.chain.TrafficSpec;
import io.transnfv.engine.chain.VnfNode;
import io.transnfv.engine.source.PacketBuffer;
import io.transnfv.vnf.api.ParamKind;
import io.transnfv.vnf.api.ParamSpec;
import io.transnfv.vnf.api.VnfFactory;
import io.transnfv.vnf.api.VnfRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.StringJoiner;
import java.util.concurrent.Callable;

/** {@code transnfv validate}: checks a chain file and describes it. */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a chain definition; errors name file:line:column and what to write instead.")
final class ValidateCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "CHAIN.yaml", description = "The chain definition to check: a YAML file, or the name of a bundled chain.")
    Path chain;

    @Override
    public Integer call() throws IOException
    {
        final ChainSpec spec = ChainOptions.load(chain);
        checkBatchMemory(spec);
        System.out.println(chain + ": valid chain '" + spec.name() + "' with " + spec.vnfs().size() + " VNFs");
        for (final VnfNode node : spec.vnfs())
        {
            System.out.println("  " + node.name() + " (" + node.type() + ") " + parameters(node));
        }
        for (final EdgeSpec edge : spec.edges())
        {
            System.out.println("  " + edge.from() + "." + edge.output() + " -> " + edge.to()
                + (edge.whenText().isEmpty() ? "" : " when " + edge.whenText()));
        }
        return 0;
    }

    /**
     * Rejects batches whose packet buffers cannot fit this JVM's heap, as {@code run} would: with
     * generated traffic the buffers are sized for its {@code max_size}, with a capture for its
     * smallest possible buffers (a capture's snap length can only make them larger).
     */
    private static void checkBatchMemory(final ChainSpec spec)
    {
        final RunSettings settings = spec.settings();
        final TrafficSpec traffic = settings.traffic();
        final int bufferBytes = traffic.kind() == TrafficSpec.Kind.GENERATE
            ? BatchMemory.bufferBytes(traffic.generator().maxFrameSize()) : PacketBuffer.MIN_CAPACITY;
        BatchMemory.check(settings.punctuationTransactions(), settings.fragments().maxHeld(), bufferBytes,
            Runtime.getRuntime().maxMemory());
    }

    /** @return the node's parameters as {@code {name=value, ...}}, durations in units as YAML takes them. */
    private static String parameters(final VnfNode node)
    {
        final VnfFactory factory = VnfRegistry.load().find(node.type());
        final StringJoiner text = new StringJoiner(", ", "{", "}");
        node.config().asMap().forEach((name, value) ->
        {
            final ParamKind kind = factory == null ? null : factory.params().stream()
                .filter(p -> p.name().equals(name)).map(ParamSpec::kind).findFirst().orElse(null);
            text.add(name + "=" + (kind == null ? String.valueOf(value) : ParameterText.value(kind, value)));
        });
        return text.toString();
    }
}
