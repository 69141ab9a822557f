#!/usr/bin/env bash
# Exactly-once on a real cluster: a JobManager and two TaskManagers as separate JVMs
# (scripts/flink-cluster.sh), a chain submitted with --flink-cluster, one TaskManager killed
# with kill -9 once the job has completed a checkpoint, a new one started; the recovered run's
# records and forwarded frames must equal those of the standalone engine over the same traffic,
# byte for byte, and its final state must hold the same entries. The chain is a trojan detector whose per-host table is by-source-host: its
# subtasks share nothing, so a failure-free Flink run commits exactly the standalone run's files
# (FlinkTraceEquivalenceTest, RescaleTest), and the standalone run is the cheaper reference.
# Exit 0 if they are equal and the job did restart.
# Usage: scripts/flink-cluster-check.sh [PACKETS [REST_PORT]]   (default 200000, 28081)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packets="${1:-200000}"
rest="${2:-28081}"
jar="${TRANSNFV_JAR:-$root/cli/target/transnfv.jar}"
work="$(mktemp -d)"
cluster="$work/cluster"
reference=""
trap '[ -z "$reference" ] || kill "$reference" 2>/dev/null || true; "$root/scripts/flink-cluster.sh" stop "$cluster" || true; rm -rf "$work"' EXIT
cat > "$work/td.yaml" <<YAML
name: td
vnfs:
  - name: td
    type: trojan-detector
    params: { pattern: [22, 21, 6667], window: 60s }
    tables:
      progress: { distribution: by-source-host }
settings:
  traffic:
    generate: { packets: $packets, flows: 800, hosts: 150, new_conn_ratio: 0.1, dst_ports: "22,21,6667,80", seed: 5 }
YAML

echo "the reference: the standalone engine, while the cluster starts"
java -jar "$jar" run "$work/td.yaml" --no-progress --records "$work/a.txt" --out "$work/a.pcap" --state "$work/a-state.txt" \
  > "$work/a.summary" 2> "$work/a.err" &
reference=$!
"$root/scripts/flink-cluster.sh" start "$cluster" 2 "$rest"
echo "the same traffic on the cluster, a checkpoint every 100 ms"
java -jar "$jar" run "$work/td.yaml" --runtime flink --parallelism 2 --no-progress --flink-checkpoint-every 100ms \
  --flink-cluster "localhost:$rest" --records "$work/b.txt" --out "$work/b.pcap" --state "$work/b-state.txt" \
  > "$work/b.summary" 2> "$work/b.err" &
client=$!
job=""
for _ in $(seq 1 1200); do
  job="$(curl -s "http://localhost:$rest/jobs/overview" | grep -o '"jid":"[0-9a-f]*"' | head -1 | grep -o '[0-9a-f]\{32\}' || true)"
  if [ -n "$job" ] && curl -s "http://localhost:$rest/jobs/$job/checkpoints" | grep -q '"completed":[1-9]'; then break; fi
  kill -0 "$client" 2>/dev/null || break
  sleep 0.1
done
[ -n "$job" ] || { echo "the job never started; see $cluster/*.log" >&2; cat "$work/b.err" >&2; exit 1; }
"$root/scripts/flink-cluster.sh" kill-taskmanager "$cluster" 1
"$root/scripts/flink-cluster.sh" add-taskmanager "$cluster"
wait "$client" || { cat "$work/b.err" >&2; exit 1; }
wait "$reference" || { cat "$work/a.err" >&2; exit 1; }
reference=""
grep '^flink' "$work/b.summary"
status=0
for f in a.txt:b.txt a.pcap:b.pcap; do
  if cmp -s "$work/${f%%:*}" "$work/${f##*:}"; then echo "equal: ${f%%:*} ${f##*:}"; else echo "DIFFERENT: ${f%%:*} ${f##*:}"; status=1; fi
done
# a Flink run writes each table's entries subtask by subtask: the same lines as the standalone dump, in another order
if cmp -s <(LC_ALL=C sort "$work/a-state.txt") <(LC_ALL=C sort "$work/b-state.txt"); then
  echo "equal, as sorted lines: a-state.txt b-state.txt"
else
  echo "DIFFERENT, as sorted lines: a-state.txt b-state.txt"; status=1
fi
restarts="$(grep -o 'restarts [0-9]*' "$work/b.summary" | grep -o '[0-9]*$')"
if [ "${restarts:-0}" -lt 1 ]; then echo "the job did not restart: the kill came too late (raise PACKETS)"; status=1; fi
exit $status
