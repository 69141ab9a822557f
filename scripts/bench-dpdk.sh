#!/usr/bin/env bash
# Runs the DPDK front end's JMH benchmark (experiments/.../dpdk/DpdkFrontEndBenchmark) in
# rounds and prints a Markdown table: packets/s per case, median (min-max) over the rounds,
# with the load average seen. Usage: scripts/bench-dpdk.sh [key=value ...], e.g.
#   scripts/bench-dpdk.sh rounds=5 packets=2000000 chains=none,nat-lb-td
#   scripts/bench-dpdk.sh libraries=before=before.so,after=native/target/classes/native/linux-x86_64/libtransnfv_dpdk.so
# (keys: see DpdkFrontEndBenchmarkMain). Built from this checkout's reactor into
# experiments/target/benchmarks.jar; nothing is installed into the local Maven repository.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" libdpdk-dev pkg-config
mvn -B -q -f "$root/pom.xml" -DskipTests package -pl experiments -am >&2
# The default trace is found relative to the repository root.
cd "$root"
exec java ${TRANSNFV_JAVA_OPTS:-} -cp "$root/experiments/target/benchmarks.jar" \
  io.transnfv.experiments.dpdk.DpdkFrontEndBenchmarkMain "$@"
