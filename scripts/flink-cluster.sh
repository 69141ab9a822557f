#!/usr/bin/env bash
# A Flink 2.3 session cluster as separate JVMs on loopback ports, from the Flink classes inside
# the shaded transnfv.jar (no Flink distribution needed): one JobManager and N TaskManagers.
#
# Usage:
#   scripts/flink-cluster.sh start DIR [TASKMANAGERS [REST_PORT]]  config in DIR/conf, logs and pids in DIR
#   scripts/flink-cluster.sh add-taskmanager DIR                    one more TaskManager
#   scripts/flink-cluster.sh kill-taskmanager DIR I                 kill -9 TaskManager I (1-based)
#   scripts/flink-cluster.sh stop DIR                               ends every JVM this script started in DIR
# Then: java -jar cli/target/transnfv.jar run lb --runtime flink --flink-cluster localhost:REST_PORT
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${TRANSNFV_JAR:-$root/cli/target/transnfv.jar}"
cmd="${1:?usage: flink-cluster.sh start|add-taskmanager|kill-taskmanager|stop DIR ...}"
dir="${2:?the cluster directory}"

write_config() { # rest port, rpc port, slots
  mkdir -p "$dir/conf"
  # The TaskManager refuses to start without the CPU cores and every fine-grained memory size,
  # which the distribution's scripts would otherwise compute from one total.
  cat > "$dir/conf/config.yaml" <<YAML
jobmanager.rpc.address: localhost
jobmanager.rpc.port: $2
jobmanager.bind-host: localhost
rest.address: localhost
rest.bind-address: localhost
rest.port: $1
taskmanager.host: localhost
taskmanager.bind-host: localhost
taskmanager.numberOfTaskSlots: $3
taskmanager.cpu.cores: 2
taskmanager.memory.framework.heap.size: 64m
taskmanager.memory.task.heap.size: 384m
taskmanager.memory.managed.size: 32m
taskmanager.memory.network.min: 32m
taskmanager.memory.network.max: 32m
taskmanager.memory.framework.off-heap.size: 64m
taskmanager.memory.task.off-heap.size: 0m
taskmanager.memory.jvm-metaspace.size: 192m
taskmanager.memory.jvm-overhead.min: 64m
taskmanager.memory.jvm-overhead.max: 64m
heartbeat.interval: 500
heartbeat.timeout: 5000
YAML
  # A TaskManager killed with kill -9 is found dead after two heartbeat RPCs fail
  # (heartbeat.rpc-failure-threshold), so the interval sets how soon; the timeout, for a peer that
  # answers nothing at all, stays long enough for a loaded machine's pauses.
}

start_taskmanager() {
  local n=$(( $(ls "$dir"/tm-*.pid "$dir"/tm-*.killed 2>/dev/null | wc -l) + 1 ))
  java -Xmx600m -cp "$jar" org.apache.flink.runtime.taskexecutor.TaskManagerRunner --configDir "$dir/conf" \
    > "$dir/tm-$n.log" 2>&1 &
  echo $! > "$dir/tm-$n.pid"
  echo "TaskManager $n: pid $(cat "$dir/tm-$n.pid"), log $dir/tm-$n.log"
}

wait_for_slots() { # rest port, slots wanted
  # generous: on a loaded machine three JVMs can take minutes to start; a quiet one offers them in seconds
  local deadline=$((SECONDS + 300))
  while [ "$SECONDS" -lt "$deadline" ]; do
    local free
    free="$(curl -s "http://localhost:$1/overview" | grep -o '"slots-total":[0-9]*' | grep -o '[0-9]*$' || true)"
    if [ -n "$free" ] && [ "$free" -ge "$2" ]; then return 0; fi
    sleep 0.2
  done
  echo "the cluster did not offer $2 slots within 300 s; see $dir/*.log" >&2
  return 1
}

case "$cmd" in
  start)
    taskmanagers="${3:-2}"
    rest="${4:-28081}"
    # one slot each: a job of parallelism 2 then runs on both, and killing either TaskManager hits it
    slots="${SLOTS:-1}"
    if [ ! -f "$jar" ]; then echo "no $jar: build it first, e.g. ./transnfv vnfs" >&2; exit 1; fi
    mkdir -p "$dir"
    echo "$rest" > "$dir/rest.port"
    echo "$slots" > "$dir/slots"
    write_config "$rest" $((rest + 1)) "$slots"
    java -Xmx512m -cp "$jar" org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint --configDir "$dir/conf" \
      > "$dir/jm.log" 2>&1 &
    echo $! > "$dir/jm.pid"
    echo "JobManager: pid $(cat "$dir/jm.pid"), REST localhost:$rest, log $dir/jm.log"
    for _ in $(seq 1 "$taskmanagers"); do start_taskmanager; done
    wait_for_slots "$rest" $((taskmanagers * slots))
    ;;
  add-taskmanager)
    start_taskmanager
    ;;
  kill-taskmanager)
    i="${3:?which TaskManager}"
    kill -9 "$(cat "$dir/tm-$i.pid")"
    echo "killed TaskManager $i (pid $(cat "$dir/tm-$i.pid"))"
    mv "$dir/tm-$i.pid" "$dir/tm-$i.killed"
    ;;
  stop)
    for pid in "$dir"/tm-*.pid "$dir"/jm.pid; do
      [ -f "$pid" ] || continue
      kill "$(cat "$pid")" 2>/dev/null || true
      rm -f "$pid"
    done
    ;;
  *)
    echo "unknown command '$cmd': start, add-taskmanager, kill-taskmanager or stop" >&2
    exit 2
    ;;
esac
