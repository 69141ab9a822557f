#!/usr/bin/env bash
# Runs the DPDK front end benchmark (native/src/test/.../DpdkFrontEndBenchmark) in one JVM
# and prints a Markdown table. Usage: scripts/bench-dpdk.sh [packets-per-case] [trace.pcap]
# The modules are resolved from this checkout's reactor (nothing is installed into the
# local Maven repository).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" libdpdk-dev pkg-config
mvn -B -q -f "$root/pom.xml" -DskipTests test-compile dependency:build-classpath -pl native -am \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt >&2
cp="$root/native/target/classes:$root/native/target/test-classes:$(cat "$root/native/target/bench-classpath.txt")"
args=("$@")
if [ $# -ge 2 ]; then
  args[1]="$(realpath "$2")"
fi
# The default trace is found relative to the native module, as in its tests.
cd "$root/native"
java ${TRANSNFV_JAVA_OPTS:-} -cp "$cp" io.transnfv.dpdk.DpdkFrontEndBenchmark "${args[@]}"
