/**
 * The chain experiment runner behind {@code transnfv experiment}: pre-generated traffic,
 * the engine and every baseline run side by side on it (warm-up, repetitions, divergences
 * from the serial oracle), one measurement per point. Driven by one thread (the caller of
 * {@link io.transnfv.experiments.runner.ExperimentRunner#run()}); the progress counter may
 * be read from any thread.
 */
package io.transnfv.experiments.runner;
