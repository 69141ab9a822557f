/**
 * Chain definitions: reads a chain's YAML file, validates it against the VNF types on the
 * class path and produces the {@link io.transnfv.engine.chain.ChainSpec} the runtime runs.
 *
 * <pre>
 *   chain.yaml ──► YamlTreeReader ──► YamlNode tree ──► ChainValidator ──► ChainSpec
 *                  (Jackson tokens,    (every node       (collects every      or
 *                   line:column)        knows where)      ChainError)         ChainValidationException
 * </pre>
 *
 * <p>Setup only: everything here runs once, on the thread that loads the chain, before any
 * packet flows. The one product used per packet is the edge predicate, which allocates
 * nothing and is safe to call from any thread. The format is documented in
 * {@code docs/chain-yaml.md}.
 */
package io.transnfv.chains;
