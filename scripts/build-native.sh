#!/usr/bin/env bash
# Builds native/'s JNI library libtransnfv_dpdk.so against Debian's libdpdk-dev, when
# pkg-config finds libdpdk; otherwise leaves a note saying why, which the Java side reports
# as "DPDK unavailable: <why>" when --dpdk is used. Called by native/pom.xml (process-classes).
#   build-native.sh SRC_DIR JNI_HEADER_DIR OUT_DIR JAVA_HOME
set -euo pipefail

src="$1"; headers="$2"; out="$3"; java_home="$4"
mkdir -p "$out"
rm -f "$out/libtransnfv_dpdk.so" "$out/UNAVAILABLE.txt"

unavailable() {
  echo "transnfv-native: $*; skipping the DPDK library" >&2
  echo "$*" > "$out/UNAVAILABLE.txt"
  exit 0
}

[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || unavailable "built on $(uname -s) $(uname -m); the DPDK front end is built for Linux x86-64 only"
command -v pkg-config >/dev/null 2>&1 || unavailable "pkg-config was not found when this was built"
pkg-config --exists libdpdk || unavailable "pkg-config found no libdpdk when this was built (libdpdk-dev not installed)"
command -v "${CC:-gcc}" >/dev/null 2>&1 || unavailable "no C compiler (${CC:-gcc}) when this was built"
# JAVA_HOME may be a JRE inside a JDK (Java 8 layout) or the JDK itself.
[ -f "$java_home/include/jni.h" ] || java_home="$(dirname "$java_home")"
[ -f "$java_home/include/jni.h" ] || unavailable "jni.h not found under $4 (a JDK, not a JRE, is needed)"

# shellcheck disable=SC2046
"${CC:-gcc}" -O2 -g -Wall -Wextra -Werror=implicit-function-declaration -fPIC -shared \
  -I"$java_home/include" -I"$java_home/include/linux" -I"$headers" -I"$src" \
  $(pkg-config --cflags libdpdk) \
  "$src"/*.c -o "$out/libtransnfv_dpdk.so" \
  $(pkg-config --libs libdpdk)
echo "transnfv-native: built $out/libtransnfv_dpdk.so against DPDK $(pkg-config --modversion libdpdk)" >&2
