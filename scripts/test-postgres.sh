#!/usr/bin/env bash
# Starts the machine's PostgreSQL (Debian's package, installed by .ci/run), creates a test
# role and database, and prints the URL for KONANE_TEST_POSTGRES. Idempotent; with --fresh
# (as CI runs it) the database is made anew, so nothing an earlier run or another branch
# left in it (rows, migrations) reaches the tests.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do
  su postgres -c "pg_isready -q" && break
  sleep 1
done
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='konane'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE konane LOGIN PASSWORD 'konane'\""
if [ "${1:-}" = --fresh ]; then
  su postgres -c "psql -qc 'DROP DATABASE IF EXISTS konane_test WITH (FORCE)'" >/dev/null
fi
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='konane_test'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE DATABASE konane_test OWNER konane\""
echo "postgres://konane:konane@127.0.0.1:5432/konane_test"
