package io.transnfv.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The chain the Flink command tests stop, resume and rescale: a trojan detector whose per-host
 * progress table is {@code by-source-host}, so packets are routed by source address, the subtasks
 * share nothing (their union is the standalone run), and each host's progress moves with it when
 * the parallelism changes. An alert needs the progress made before it, so state lost at a stop
 * shows in the records.
 */
final class TrojanByHostChain
{
    private TrojanByHostChain()
    {
    }

    /** Writes the chain, on {@code packets} generated packets, as {@code dir/td.yaml}, and returns its path. */
    static Path write(final Path dir, final long packets) throws IOException
    {
        return Files.writeString(dir.resolve("td.yaml"), """
            name: td
            vnfs:
              - name: td
                type: trojan-detector
                params: { pattern: [22, 21, 6667], window: 60s }
                tables:
                  progress: { distribution: by-source-host }
            settings:
              traffic:
                generate: { packets: %d, flows: 800, hosts: 150, new_conn_ratio: 0.1, dst_ports: "22,21,6667,80", seed: 5 }
            """.formatted(packets));
    }
}
