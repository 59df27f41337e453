#!/usr/bin/env bash
# Server load figures for docs/benchmarks.md, SQLite and PostgreSQL side by side, one and
# two instances, all in one run on this machine. Uses the release binary (build it first:
# `cargo build --release`) and a fresh PostgreSQL database `konane_bench` on the machine's
# cluster (scripts/test-postgres.sh starts it). Usage:
#   bash scripts/bench-load.sh [scenario...]
# scenarios: paced (1,000 games, one move a second), saturation (200 games to their end, no thinking),
# open (10,000 games, one move every 10 s, SQLite only), statements (what PostgreSQL runs
# for 1,000 moves: needs pg_stat_statements in shared_preload_libraries), arena (500
# players in one arena for 60 s, a move a second, after the same load without the arena,
# SQLite and PostgreSQL: ARENA_PLAYERS, ARENA_DURATION, ARENA_DATABASE="sqlite" change it);
# default: paced saturation.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${KONANE:-target/release/konane}
# The servers may be another build (an older one, to compare); the load test is always $bin.
server=${KONANE_SERVE:-$bin}
# More flags for every instance, e.g. KONANE_SERVE_ARGS="--database-connections 8".
read -r -a serve_args <<<"${KONANE_SERVE_ARGS:-}"
[ -x "$bin" ] && [ -x "$server" ] || { echo "build first: cargo build --release" >&2; exit 1; }
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(paced saturation)

bash scripts/test-postgres.sh >/dev/null
ulimit -n 20000
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fresh_pg() {
  su postgres -c "psql -qc 'DROP DATABASE IF EXISTS konane_bench' -c 'CREATE DATABASE konane_bench OWNER konane'" >/dev/null
  echo "postgres://konane:konane@127.0.0.1:5432/konane_bench"
}

# serve PORT DATABASE_URL: starts an instance with every per-client limit lifted (all the
# load comes from one address) and waits until it answers.
serve() {
  "$server" serve --port "$1" --database "$2" --rate-limit 0 --max-connections 0 \
    --max-connections-per-address 0 --max-sockets-per-address 0 "${serve_args[@]}" \
    >"$work/serve-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "instance on port $1 did not start" >&2
  cat "$work/serve-$1.log" >&2
  exit 1
}

stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
}

# run TITLE INSTANCES DATABASE LOADTEST-ARGS...
run() {
  local title=$1 instances=$2 db=$3
  shift 3
  local urls=()
  for i in $(seq 1 "$instances"); do
    local port=$((18090 + i))
    serve "$port" "$db"
    urls+=(--url "http://127.0.0.1:$port")
  done
  echo "== $title"
  "$bin" loadtest "${urls[@]}" --server-pid "${pids[0]}" "$@"
  stop_all
  echo
}

# statements: 100 games of 10 moves on one instance, then what PostgreSQL ran for them,
# per statement, from pg_stat_statements.
statements() {
  local db
  db=$(fresh_pg)
  su postgres -c "psql -d konane_bench -qc 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements'" >/dev/null
  serve 18091 "$db"
  su postgres -c "psql -d konane_bench -qtAc 'SELECT pg_stat_statements_reset(), pg_stat_reset()'" >/dev/null
  echo "== statements: PostgreSQL, one instance, 100 games of 10 moves"
  "$bin" loadtest --url http://127.0.0.1:18091 --games 100 --moves 10 --think-ms 0
  su postgres -c "psql -d konane_bench -c \"SELECT calls, rows, round(mean_exec_time::numeric, 3) AS mean_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'konane_bench') AND calls >= 50 ORDER BY calls DESC\""
  su postgres -c "psql -d konane_bench -qtAc \"SELECT 'commits ' || xact_commit FROM pg_stat_database WHERE datname = 'konane_bench'\""
  stop_all
}

# arena: one instance, the arena load after its baseline (`loadtest --arena --baseline`),
# on SQLite then PostgreSQL. Every player registers from its own loopback address; the
# baseline's games all come from 127.0.0.1, hence the lifted per-address caps of `serve`.
arena() {
  local players=${ARENA_PLAYERS:-500} duration=${ARENA_DURATION:-60s} kind db
  for kind in ${ARENA_DATABASE:-sqlite postgres}; do
    case $kind in
      sqlite) db="sqlite://$work/arena.db" ;;
      postgres) db=$(fresh_pg) ;;
      *) echo "ARENA_DATABASE lists sqlite and/or postgres" >&2; exit 2 ;;
    esac
    serve 18091 "$db"
    echo "== arena: $players players, $kind, one instance"
    "$bin" loadtest --url http://127.0.0.1:18091 --arena "$players" --moves 10 --think 1s \
      --duration "$duration" --baseline
    stop_all
    echo
  done
}

for s in "${scenarios[@]}"; do
  if [ "$s" = statements ]; then statements; continue; fi
  if [ "$s" = arena ]; then arena; continue; fi
  case $s in
    paced) args=(--games 1000 --moves 10 --think-ms 1000) ;;
    saturation) args=(--games 200 --moves 60 --think-ms 0) ;;
    open) args=(--games 10000 --moves 5 --think-ms 10000) ;;
    *) echo "unknown scenario $s" >&2; exit 2 ;;
  esac
  run "$s: SQLite, one instance" 1 "sqlite://$work/$s.db" "${args[@]}"
  [ "$s" = open ] && continue
  run "$s: PostgreSQL, one instance" 1 "$(fresh_pg)" "${args[@]}"
  run "$s: PostgreSQL, two instances" 2 "$(fresh_pg)" "${args[@]}"
done
