#!/usr/bin/env bash
# Exactly-once on a real cluster: a JobManager and two TaskManagers as separate JVMs
# (scripts/flink-cluster.sh), the chain submitted with --flink-cluster, one TaskManager killed
# with kill -9 once the job has completed a checkpoint, a new one started; the recovered run's
# records, forwarded frames and final state must equal those of a run without failures (on the
# in-process MiniCluster). Exit 0 if they do.
# Usage: scripts/flink-cluster-check.sh [PACKETS [REST_PORT]]   (default 600000, 28081)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packets="${1:-600000}"
rest="${2:-28081}"
jar="${TRANSNFV_JAR:-$root/cli/target/transnfv.jar}"
work="$(mktemp -d)"
cluster="$work/cluster"
trap '"$root/scripts/flink-cluster.sh" stop "$cluster" || true; rm -rf "$work"' EXIT
run=(run lb --generate "packets=$packets" --runtime flink --parallelism 2 --no-progress --flink-checkpoint-every 200ms)

echo "failure-free run on the MiniCluster"
java -jar "$jar" "${run[@]}" --records "$work/a.txt" --out "$work/a.pcap" --state "$work/a-state.txt" > "$work/a.summary"

"$root/scripts/flink-cluster.sh" start "$cluster" 2 "$rest"
echo "the same run on the cluster"
java -jar "$jar" "${run[@]}" --flink-cluster "localhost:$rest" \
  --records "$work/b.txt" --out "$work/b.pcap" --state "$work/b-state.txt" > "$work/b.summary" 2> "$work/b.err" &
client=$!
for _ in $(seq 1 240); do
  job="$(curl -s "http://localhost:$rest/jobs/overview" | grep -o '"jid":"[0-9a-f]*"' | head -1 | grep -o '[0-9a-f]\{32\}' || true)"
  if [ -n "$job" ] && curl -s "http://localhost:$rest/jobs/$job/checkpoints" | grep -q '"completed":[1-9]'; then break; fi
  sleep 0.25
done
[ -n "${job:-}" ] || { echo "the job never started; see $cluster/*.log" >&2; exit 1; }
"$root/scripts/flink-cluster.sh" kill-taskmanager "$cluster" 1
"$root/scripts/flink-cluster.sh" add-taskmanager "$cluster"
wait "$client" || { cat "$work/b.err" >&2; exit 1; }
grep '^flink' "$work/b.summary"
status=0
for f in a.txt:b.txt a.pcap:b.pcap a-state.txt:b-state.txt; do
  if cmp -s "$work/${f%%:*}" "$work/${f##*:}"; then echo "equal: ${f%%:*} ${f##*:}"; else echo "DIFFERENT: ${f%%:*} ${f##*:}"; status=1; fi
done
restarts="$(grep -o 'restarts [0-9]*' "$work/b.summary" | grep -o '[0-9]*$')"
if [ "${restarts:-0}" -lt 1 ]; then echo "the job did not restart: the kill came too late (raise PACKETS)"; status=1; fi
exit $status
