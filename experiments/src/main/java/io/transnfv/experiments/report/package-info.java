/**
 * What an experiment leaves behind: {@code data.csv}, PNG plots drawn with XChart (no Python
 * needed) and {@code summary.md} with the machine, the configuration and the ratios of the
 * engine to each baseline at every point. Written once, by the thread that ran the experiment,
 * after the runs.
 */
package io.transnfv.experiments.report;
