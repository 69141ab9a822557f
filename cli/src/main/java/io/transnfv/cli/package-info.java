/**
 * The {@code transnfv} command: run, validate and verify chains, list VNF types. The one
 * place in the product that prints; everything it shows comes from the engine's return
 * values and reports.
 */
package io.transnfv.cli;
