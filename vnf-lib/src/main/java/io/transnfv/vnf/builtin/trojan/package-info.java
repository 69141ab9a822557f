/**
 * The {@code trojan-detector} VNF: an ordered pattern of connection-starting events per
 * source host across its flows ({@link io.transnfv.vnf.builtin.trojan.TrojanDetector},
 * created by {@link io.transnfv.vnf.builtin.trojan.TrojanDetectorFactory}). Configuration is
 * read-only after construction; pre- and post-processing may run on any number of threads.
 */
package io.transnfv.vnf.builtin.trojan;
