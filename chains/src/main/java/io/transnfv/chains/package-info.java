/**
 * Chain definitions: reads a chain's YAML file, validates it against the VNF types on the
 * class path and produces the {@link io.transnfv.engine.chain.ChainSpec} the runtime runs.
 *
 * <pre>
 *   chain.yaml ──► YamlTreeReader ──► YamlNode tree ──► ChainReader ──────────► ChainSpec
 *                  (Jackson tokens,    (every node       one reader per section   or
 *                   line:column)        knows where)     (VnfsReader, EdgesReader, ChainValidationException
 *                                                         SettingsReader, ...)
 *        every step adds to one ChainErrors ──► ChainError (file:line:column, message, fix)
 * </pre>
 *
 * <p>Section readers: {@code VnfsReader} (with {@code ParamsReader} for each VNF's
 * parameters), {@code EdgesReader} (with {@code WhenReader} for header tests),
 * {@code ChainGraphCheck} (shadowed edges, cycles, reachability), {@code SettingsReader}
 * (with {@code TrafficReader}), and for a chain of tenants {@code TenantsReader}, which reads
 * each tenant's chain with the same readers and compiles the tenants into one chain (a
 * classifier, a limiter per tenant, the tenants' VNFs renamed {@code <tenant>-<vnf>};
 * {@code docs/tenants.md}). Each reports at the key or value at fault and keeps going,
 * so one load reports every problem.
 *
 * <p>Setup only: everything here runs once, on the thread that loads the chain, before any
 * packet flows. The one product used per packet is the edge predicate, which allocates
 * nothing and is safe to call from any thread. The format is documented in
 * {@code docs/chain-yaml.md}.
 */
package io.transnfv.chains;
