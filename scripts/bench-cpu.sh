#!/usr/bin/env bash
# What one saturation run (200 games to their end, 9,000 moves) costs the machine: CPU of
# the server instance(s) and of PostgreSQL's processes (ticks of 10 ms), and the TCP
# segments the machine sent (the round trips, with the load test's own traffic), for
# docs/benchmarks.md. Usage:
#   bash scripts/bench-cpu.sh pg|sqlite [INSTANCES]
# KONANE_SERVE=<binary> runs another build's server, as in scripts/bench-load.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KONANE:-target/release/konane}
server=${KONANE_SERVE:-$bin}
[ -x "$bin" ] && [ -x "$server" ] || { echo "build first: cargo build --release" >&2; exit 1; }
backend=${1:-pg}
instances=${2:-1}
bash scripts/test-postgres.sh >/dev/null
ulimit -n 20000

# ticks PID...: user and system CPU of the processes, in clock ticks.
ticks() {
  local t=0 line fields
  for p in "$@"; do
    read -r line <"/proc/$p/stat" 2>/dev/null || continue
    read -r -a fields <<<"${line#*) }"
    t=$((t + fields[11] + fields[12]))
  done
  echo "$t"
}
segments() { awk '/^Tcp:/ { if (++n == 2) print $12 }' /proc/net/snmp; }

work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"' EXIT
if [ "$backend" = pg ]; then
  su postgres -c "psql -qc 'DROP DATABASE IF EXISTS konane_bench' -c 'CREATE DATABASE konane_bench OWNER konane'" >/dev/null 2>&1
  db=postgres://konane:konane@127.0.0.1:5432/konane_bench
else
  db="sqlite://$work/bench.db"
fi
urls=()
for i in $(seq 1 "$instances"); do
  port=$((18190 + i))
  "$server" serve --port "$port" --database "$db" --rate-limit 0 --max-connections 0 \
    --max-connections-per-address 0 --max-sockets-per-address 0 >"$work/serve-$i.log" 2>&1 &
  pids+=($!)
  urls+=(--url "http://127.0.0.1:$port")
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
  done
done
pg() { pgrep -x postgres || true; }
# shellcheck disable=SC2046
s0=$(ticks "${pids[@]}"); p0=$(ticks $(pg)); t0=$(segments)
"$bin" loadtest "${urls[@]}" --games 200 --moves 60 --think-ms 0 | grep -E "moves per second|p99"
# shellcheck disable=SC2046
s1=$(ticks "${pids[@]}"); p1=$(ticks $(pg)); t1=$(segments)
echo "server cpu $((s1 - s0)) ticks, postgres cpu $((p1 - p0)) ticks, tcp segments $((t1 - t0))"
