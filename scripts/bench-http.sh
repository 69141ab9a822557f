#!/usr/bin/env bash
# Throughput with the control plane off and on, side by side: A (no --http) and B (--http on a
# free loopback port, GET /metrics scraped every 100 ms for the whole run, as a busy Prometheus
# would), interleaved A B A B for ROUNDS rounds on the same chain and traffic. Prints the load
# average before and after and with every run, packets/s per run (from the run's JSON report),
# the CPU time each run's process took (user + system, per million packets: less sensitive to
# other load than packets/s), B's scrape count and its scraper's own CPU per scrape,
# min/median/max per contender, and B's median over A's. The target is B within 3 % of A;
# measure on a quiet machine (load average well under 1) and say so with the figures.
# SCRAPE_INTERVAL=off runs B with the endpoint on and nobody scraping it.
#
# The scraper is what a Prometheus server does to the target, and no more: one HTTP/1.1
# connection kept alive for the whole run, a GET /metrics at a fixed interval, the body read
# and checked, no process started per scrape. It is a python3 http.client loop (python3 is on
# every machine that runs this script's shell tools; a second JVM would spend a core on its own
# start-up and JIT while the run warms up, and curl+sleep forked two processes ten times a
# second on the engine's cores, which cost the run more than the scrapes themselves). A scrape
# that fails (not 200, not an exposition, the connection lost while the run goes on) fails the
# benchmark.
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
command -v python3 >/dev/null || { echo "bench-http: python3 is needed for the scraper (Debian: apt-get install python3)" >&2; exit 2; }
work="$(mktemp -d)"
scraper=""
trap '[ -n "$scraper" ] && kill "$scraper" 2>/dev/null; rm -rf "$work"' EXIT
cd "$root"

# The scraper: python3 scrape.py HOST:PORT INTERVAL_S RUN_PID SUMMARY_FILE. Scrapes until SIGTERM;
# then writes "SCRAPES BYTES CPU_US_PER_SCRAPE" to SUMMARY_FILE and exits 0, or 1 after a failure.
cat > "$work/scrape.py" <<'PY'
import http.client, os, signal, sys, time
address, interval, run_pid, summary = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
host, port = address.rsplit(":", 1)
scrapes, size, failure = 0, 0, None
cpu_start = None
def done(*_):
    cpu = time.process_time() - cpu_start if cpu_start is not None else 0.0
    with open(summary, "w") as out:
        out.write("%d %d %.0f\n" % (scrapes, size, cpu * 1e6 / (scrapes - 1) if scrapes > 1 else 0))
    if failure:
        print("bench-http: scrape %d failed: %s" % (scrapes + 1, failure), file=sys.stderr)
    sys.exit(1 if failure else 0)
signal.signal(signal.SIGTERM, done)
def run_alive():
    try:
        os.kill(run_pid, 0)
        return True
    except OSError:
        return False
connection = http.client.HTTPConnection(host, int(port), timeout=10)
next_at = time.monotonic()
while failure is None:
    try:
        connection.request("GET", "/metrics")
        response = connection.getresponse()
        body = response.read()
        if response.status != 200 or b"\ntransnfv_packets_finished_total " not in body:
            failure = "HTTP %d, %d bytes: %r" % (response.status, len(body), body[:200])
            break
        if cpu_start is None:
            cpu_start = time.process_time()   # from the first answer on: the scraper's start-up is not a scrape's cost
        scrapes += 1
        size = len(body)
    except (OSError, http.client.HTTPException) as e:
        # the server closes when the run's command ends: then the run's process goes within moments
        for _ in range(50):
            if not run_alive():
                break
            time.sleep(0.1)
        if run_alive():
            failure = "%s while the run goes on" % (e,)
        break
    next_at += interval
    time.sleep(max(0.0, next_at - time.monotonic()))
# the run ended (or a scrape failed): wait for the script's SIGTERM to report
while True:
    signal.pause()
PY

./transnfv vnfs >/dev/null   # builds once, outside the measured runs
echo "A = no --http; B = --http 127.0.0.1:0 and, unless SCRAPE_INTERVAL=off, GET /metrics every ${interval} s over one"
echo "kept-alive HTTP/1.1 connection (python3 http.client, no process per scrape); interleaved A B per round."
echo "packets/s is the run report's; cpu is the run's process (user + system, JIT and GC included) per million packets."
echo "run options: ${args[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
TIMEFORMAT='%U %S'
record() { # name [note]
  local name="$1" pps packets cpu
  read -r pps packets < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["throughput"]["packets_per_second"], d["packets"]["in"])' "$work/$name.json")
  cpu="$(awk -v p="$packets" '{printf "%.2f", ($1 + $2) / p * 1e6}' "$work/$name.time")"
  echo "$pps" >> "$work/$name.all"
  echo "$cpu" >> "$work/$name.cpu"
  printf '%-14s %10s packets/s  cpu %s s per M packets  (load %s)%s\n' "$name" "$pps" "$cpu" \
    "$(cut -d' ' -f1 /proc/loadavg)" "${2:-}"
}
run_off() {
  { time ./transnfv run "${args[@]}" --no-progress --report "$work/A-off.json" > /dev/null; } 2> "$work/A-off.time"
  record A-off
}
run_on() {
  : > "$work/B.err"
  { time ./transnfv run "${args[@]}" --no-progress --report "$work/B-scraped.json" --http 127.0.0.1:0 \
    > /dev/null 2> "$work/B.err"; } 2> "$work/B-scraped.time" &
  local pid=$! url="" note=" (not scraped)"
  while [ -z "$url" ] && kill -0 "$pid" 2>/dev/null; do
    url="$(grep -o 'control plane on http://[^/ ]*' "$work/B.err" | head -1 | sed 's|^control plane on http://||')" || true
    [ -n "$url" ] || sleep 0.01
  done
  rm -f "$work/scrapes"
  if [ -n "$url" ] && [ "$interval" != off ]; then
    python3 "$work/scrape.py" "$url" "$interval" "$pid" "$work/scrapes" &
    scraper=$!
  fi
  wait "$pid" || { echo "bench-http: the B run failed:" >&2; cat "$work/B.err" >&2; exit 1; }
  if [ -n "$scraper" ]; then
    kill -TERM "$scraper" 2>/dev/null || true
    if ! wait "$scraper"; then
      scraper=""
      echo "bench-http: a scrape failed; the figures of this benchmark are void" >&2
      exit 1
    fi
    scraper=""
    read -r count bytes cpu_us < "$work/scrapes"
    [ "$count" -gt 0 ] || { echo "bench-http: B was not scraped once (is the run too short?)" >&2; exit 1; }
    note="  $count scrapes of $bytes bytes, scraper cpu $cpu_us us per scrape"
  fi
  record B-scraped "$note"
}
for r in $(seq 1 "$rounds"); do
  run_off
  run_on
done
for name in A-off B-scraped; do
  sort -n "$work/$name.all" | awk -v n="$name" '{v[NR]=$1} END {printf "%-14s min %d  median %d  max %d packets/s", n, v[1], v[int((NR+1)/2)], v[NR]}'
  sort -g "$work/$name.cpu" | awk '{v[NR]=$1} END {printf "   cpu min %.2f  median %.2f  max %.2f s per M packets\n", v[1], v[int((NR+1)/2)], v[NR]}'
done
a="$(sort -n "$work/A-off.all" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
b="$(sort -n "$work/B-scraped.all" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
awk -v a="$a" -v b="$b" 'BEGIN {printf "B/A (medians): %.3f (target: at least 0.970)\n", b / a}'
# the same side by side per round (a round's A and B ran one after the other), then min/median/max of those ratios
paste -d' ' "$work/A-off.all" "$work/B-scraped.all" | awk '{print $2 / $1}' | sort -g |
  awk '{v[NR]=$1} END {printf "B/A per round: min %.3f  median %.3f  max %.3f (median of an even count: the lower middle)\n", v[1], v[int((NR+1)/2)], v[NR]}'
ca="$(sort -g "$work/A-off.cpu" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
cb="$(sort -g "$work/B-scraped.cpu" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
awk -v a="$ca" -v b="$cb" 'BEGIN {printf "cpu B/A (medians): %.3f (the CPU per packet of each run, the scrapes it served included, the scraper not)\n", b / a}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
