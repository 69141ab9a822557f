#!/usr/bin/env bash
# Throughput with the control plane off and on, side by side: A (no --http) and B (--http on a
# free loopback port, GET /metrics scraped every 100 ms for the whole run, as a busy Prometheus
# would), interleaved A B A B for ROUNDS rounds on the same chain and traffic. Prints the load
# average before and after and with every run, packets/s per run (from the run's JSON report),
# B's scrape count, min/median/max per contender, and B's median over A's. The target is B within
# 3 % of A; measure on a quiet machine (load average well under 1) and say so with the figures.
# SCRAPE_INTERVAL=off runs B with the endpoint on and nobody scraping it.
# Usage: scripts/bench-http.sh [ROUNDS] [extra run options...], e.g.
#   scripts/bench-http.sh 5 chains/nat-lb-td.yaml --generate packets=5000000 --threads 2
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
shift || true
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(chains/nat-lb-td.yaml --generate packets=3000000 --threads 2 --warmup 200000)
fi
interval="${SCRAPE_INTERVAL:-0.1}"
command -v curl >/dev/null || { echo "bench-http: curl is needed for the scrapes (Debian: apt-get install curl)" >&2; exit 2; }
work="$(mktemp -d)"
scraper=""
trap '[ -n "$scraper" ] && kill "$scraper" 2>/dev/null; rm -rf "$work"' EXIT
cd "$root"
./transnfv vnfs >/dev/null   # builds once, outside the measured runs
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
record() { # name
  local name="$1" pps
  pps="$(grep -o '"packets_per_second" : [0-9]*' "$work/$name.json" | grep -o '[0-9]*$')"
  echo "$pps" >> "$work/$name.all"
  printf '%-14s %10s packets/s  (load %s)%s\n' "$name" "$pps" "$(cut -d' ' -f1 /proc/loadavg)" "${2:-}"
}
run_off() {
  ./transnfv run "${args[@]}" --no-progress --report "$work/A-off.json" > /dev/null
  record A-off
}
run_on() {
  : > "$work/B.err"
  ./transnfv run "${args[@]}" --no-progress --report "$work/B-scraped.json" --http 127.0.0.1:0 \
    > /dev/null 2> "$work/B.err" &
  local pid=$! url=""
  while [ -z "$url" ] && kill -0 "$pid" 2>/dev/null; do
    url="$(grep -o 'control plane on http://[^/ ]*' "$work/B.err" | head -1 | sed 's/^control plane on //')" || true
    [ -n "$url" ] || sleep 0.01
  done
  : > "$work/scrapes"
  if [ -n "$url" ] && [ "$interval" != off ]; then
    # the scraper: one GET /metrics every $interval s, each counted, until the run's server goes away
    ( while curl -sf -o /dev/null "$url/metrics"; do echo >> "$work/scrapes"; sleep "$interval"; done ) &
    scraper=$!
  fi
  wait "$pid"
  [ -n "$scraper" ] && { kill "$scraper" 2>/dev/null || true; wait "$scraper" 2>/dev/null || true; scraper=""; }
  record B-scraped "  $(wc -l < "$work/scrapes") scrapes"
}
for r in $(seq 1 "$rounds"); do
  run_off
  run_on
done
for name in A-off B-scraped; do
  sort -n "$work/$name.all" | awk -v n="$name" '{v[NR]=$1} END {printf "%-14s min %d  median %d  max %d packets/s\n", n, v[1], v[int((NR+1)/2)], v[NR]}'
done
a="$(sort -n "$work/A-off.all" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
b="$(sort -n "$work/B-scraped.all" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
awk -v a="$a" -v b="$b" 'BEGIN {printf "B/A (medians): %.3f (target: at least 0.970)\n", b / a}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
