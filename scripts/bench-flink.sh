#!/usr/bin/env bash
# The Flink runtime against the standalone engine, side by side: per round the standalone run,
# then the same chain and traffic on Flink at parallelism 1 and at parallelism 2, interleaved
# for ROUNDS rounds, each a fresh JVM (as the command is used; the Flink command has no warm-up).
# Prints the load average before and after and with every run; per run the rate (standalone: its
# throughput; Flink: the whole run from the MiniCluster's start and the processing rate from the
# first packet read to the last emitted, both from the run's JSON report) and the process's CPU
# time per packet (user + system over the packets, the JVM's start and its compilers included);
# then min / median / max per contender and of the per-round ratios of each Flink rate to that
# round's standalone rate. The issue's aim: Flink at parallelism 1 within 0.7x of standalone.
# Measure on a quiet machine (load average well under 1) and say so with the figures.
# Usage: scripts/bench-flink.sh [ROUNDS] [chain and traffic options...], e.g.
#   scripts/bench-flink.sh 5 chains/lb.yaml --generate packets=1000000
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
shift || true
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(chains/lb.yaml --generate packets=1000000)
fi
[ -x /usr/bin/time ] || { echo "bench-flink: /usr/bin/time is needed for the CPU times (Debian: apt-get install time)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
./transnfv vnfs >/dev/null   # builds once, outside the measured runs
echo "bench-flink: ${rounds} rounds of: ${args[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

field() { # file key: the first number after "key" : in a report (the rates come first in their objects)
  grep -o "\"$2\" : [0-9.]*" "$1" | head -1 | grep -o '[0-9.]*$'
}
# one run: name, then the run's options after the common ones
one() {
  local name="$1" report="$work/$1.json" cpu pps packets processing whole extra=""
  shift
  /usr/bin/time -f '%U %S' -o "$work/time" ./transnfv run "${args[@]}" --no-progress --report "$report" "$@" > /dev/null
  cpu="$(awk '{printf "%.2f", $1 + $2}' "$work/time")"
  packets="$(grep -o '"in" : [0-9]*' "$report" | head -1 | grep -o '[0-9]*$')"
  whole="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["throughput"]["packets_per_second"])' "$report")"
  echo "$whole" >> "$work/$name.whole"
  if [ "$name" = standalone ]; then
    echo "$whole" > "$work/round.standalone"
  else
    processing="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["flink"]["processing"]["packets_per_second"])' "$report")"
    echo "$processing" >> "$work/$name.processing"
    awk -v p="$processing" -v w="$whole" -v s="$(cat "$work/round.standalone")" \
      'BEGIN {printf "%.3f\n", p / s > "/dev/stderr"; printf "%.3f\n", w / s}' >> "$work/$name.whole-ratio" 2>> "$work/$name.processing-ratio"
    extra="$(printf '  processing %9s packets/s' "$processing")"
  fi
  printf '%-12s whole run %9s packets/s%s  CPU %s s, %s us/packet  (load %s)\n' "$name" "$whole" "$extra" "$cpu" \
    "$(awk -v c="$cpu" -v n="$packets" 'BEGIN {printf "%.2f", c * 1e6 / n}')" "$(cut -d' ' -f1 /proc/loadavg)"
}
for r in $(seq 1 "$rounds"); do
  echo "round $r"
  one standalone
  one flink-p1 --runtime flink --parallelism 1
  one flink-p2 --runtime flink --parallelism 2
done
summary() { # file label
  sort -g "$1" | awk -v n="$2" '{v[NR]=$1} END {printf "%-38s min %9s  median %9s  max %9s\n", n, v[1], v[int((NR+1)/2)], v[NR]}'
}
echo "per contender, packets/s:"
summary "$work/standalone.whole" "standalone"
for p in flink-p1 flink-p2; do
  summary "$work/$p.whole" "$p whole run"
  summary "$work/$p.processing" "$p processing"
done
echo "per round, Flink over that round's standalone:"
for p in flink-p1 flink-p2; do
  summary "$work/$p.processing-ratio" "$p processing / standalone"
  summary "$work/$p.whole-ratio" "$p whole run / standalone"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
