/**
 * The {@code port-scan-detector} VNF: counts, per source host, the distinct targets it left
 * half-open within a window ({@link io.transnfv.vnf.builtin.portscan.PortScanDetector},
 * created by {@link io.transnfv.vnf.builtin.portscan.PortScanDetectorFactory}).
 * Configuration is read-only after construction; pre- and post-processing may run on any
 * number of threads.
 */
package io.transnfv.vnf.builtin.portscan;
