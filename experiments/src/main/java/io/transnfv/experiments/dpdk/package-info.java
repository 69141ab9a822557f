/**
 * JMH benchmarks of the DPDK front end ({@code io.transnfv.dpdk}): packets through a DPDK
 * port, the engine and back out, against the pure-Java pcap path. A fork is one JVM and so
 * one EAL; each benchmark invocation hot-plugs its own vdev. Needs the native library
 * (libdpdk-dev at build time); without it the DPDK cases fail with the reason.
 */
package io.transnfv.experiments.dpdk;
