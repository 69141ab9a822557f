#!/usr/bin/env bash
# Throughput with and without checkpoints, side by side: A (no checkpoints) and B (checkpoints)
# interleaved A B A B for ROUNDS rounds on the same chain and traffic, both writing the output
# pcap and records; prints the load average first, then packets/s per run, B's checkpoint
# summary line, and min/median/max per contender. Then one resume: a B run killed at about
# 80 % and resumed, its resume time printed.
# Usage: scripts/bench-checkpoints.sh [ROUNDS] [extra run options...], e.g.
#   scripts/bench-checkpoints.sh 3 chains/lb.yaml --generate packets=1000000 --checkpoint-every 100
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
shift || true
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(chains/lb.yaml --generate packets=1000000 --threads 2 --warmup 200000)
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
./transnfv vnfs >/dev/null   # builds once, outside the measured runs
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() { # name, extra options...
  local name="$1"; shift
  rm -rf "$work/ckpt"
  ./transnfv run "${args[@]}" --no-progress --out "$work/out.pcap" --records "$work/records.txt" \
    --report "$work/$name.json" "$@" > "$work/$name.txt"
  local pps
  pps="$(grep -o '"packets_per_second" : [0-9]*' "$work/$name.json" | grep -o '[0-9]*$')"
  echo "$pps" >> "$work/$name.all"
  printf '%-16s %10s packets/s  (load %s)\n' "$name" "$pps" "$(cut -d' ' -f1 /proc/loadavg)"
  grep '^checkpoints:' "$work/$name.txt" || true
  if [ "$name" = B-checkpoints ]; then
    echo "  batches: $(grep -o '"batches" : [0-9]*' "$work/$name.json" | grep -o '[0-9]*$' | head -1)"
  fi
}
for r in $(seq 1 "$rounds"); do
  run "A-none"
  run "B-checkpoints" --checkpoint-dir "$work/ckpt"
done
for name in A-none B-checkpoints; do
  sort -n "$work/$name.all" | awk -v n="$name" '{v[NR]=$1} END {printf "%-16s min %d  median %d  max %d packets/s\n", n, v[1], v[int((NR+1)/2)], v[NR]}'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# one resume: a B run killed once it has taken its 20th checkpoint (about half-way with the
# defaults), resumed from its last checkpoint
rm -rf "$work/ckpt"
./transnfv run "${args[@]}" --no-progress --out "$work/out.pcap" --records "$work/records.txt" --checkpoint-dir "$work/ckpt" > /dev/null &
pid=$!
while kill -0 "$pid" 2>/dev/null && ! compgen -G "$work/ckpt/ckpt-00000000002?.*" > /dev/null; do sleep 0.05; done
sleep 0.3
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
./transnfv run "${args[@]}" --no-progress --out "$work/out.pcap" --records "$work/records.txt" --resume "$work/ckpt" 2>&1 \
  | grep -E '^(run: |resumed|checkpoints:)' || echo "the run ended before the kill"
