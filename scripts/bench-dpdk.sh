#!/usr/bin/env bash
# Runs the DPDK front end benchmark (native/src/test/.../DpdkFrontEndBenchmark) in one JVM
# and prints a Markdown table. Usage: scripts/bench-dpdk.sh [packets-per-case] [trace.pcap]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" libdpdk-dev pkg-config
mvn -B -q -f "$root/pom.xml" -DskipTests install -pl native -am >&2
deps="$(mktemp)"
trap 'rm -f "$deps"' EXIT
mvn -B -q -f "$root/native/pom.xml" dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$deps" >&2
cp="$root/native/target/classes:$root/native/target/test-classes:$(cat "$deps")"
java ${TRANSNFV_JAVA_OPTS:-} -cp "$cp" io.transnfv.dpdk.DpdkFrontEndBenchmark "$@"
