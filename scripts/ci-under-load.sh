#!/usr/bin/env bash
# CI on a busy machine: runs `CI=true bash .ci/run` several times in a row, each in a fresh clone of
# this checkout's HEAD, while every core is kept busy and a long COPY runs in a database of its own
# on the PostgreSQL server at 127.0.0.1:5432 (the one the API tests use). The COPY is fed in bursts
# with pauses between them: while it waits for its next burst, every DROP DATABASE on the server
# waits too (PostgreSQL 15+), which is what a busy shared server does to test teardowns.
#
#   scripts/ci-under-load.sh [runs]    runs CI that many times (default 3); exit 1 if any failed
#   LOAD_ONLY=1 scripts/ci-under-load.sh    only the load, until Ctrl-C (to try single suites under it)
#
# Settings: COPY_PAUSE_SECONDS (default 40) between the COPY's bursts; PG_URL of the server
# (default postgres://postgres@127.0.0.1:5432). Logs go to a temporary folder named at the start.
set -euo pipefail

ROOT=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
RUNS=${1:-3}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
COPY_PAUSE_SECONDS=${COPY_PAUSE_SECONDS:-40}
LOAD_DB="ci_load_$$"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ci-under-load.XXXXXX")
# As root the embedded PostgreSQL of the tests runs as a system user of its own, which must reach
# the binaries inside each clone's node_modules (mktemp makes the folder private).
chmod 755 "$WORK"
# What this script started: load processes and the CI run in progress. The COPY and the CI run
# each lead a process group of their own (setsid), which is ended as a whole.
STARTED=()

stop_load() {
  trap - EXIT INT TERM
  for pid in "${STARTED[@]}"; do
    kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
  done
  wait "${STARTED[@]}" 2>/dev/null || true
  psql "$PG_URL/postgres" -qc "DROP DATABASE IF EXISTS $LOAD_DB WITH (FORCE)" >/dev/null 2>&1 || true
  echo "== load stopped; logs in $WORK"
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM

busy_cores() {
  for _ in $(seq "$(nproc)"); do
    yes >/dev/null &
    STARTED+=($!)
  done
  echo "== $(nproc) core(s) kept busy"
}

# One COPY … FROM STDIN for the whole duration: 10,000 rows, a pause, again. If it ends (server
# restarted), the next one starts.
long_copy() {
  psql "$PG_URL/postgres" -qc "CREATE DATABASE $LOAD_DB"
  psql "$PG_URL/$LOAD_DB" -qc "CREATE TABLE copied (id bigint, payload text)"
  setsid bash -c '
    while :; do
      while :; do
        seq 10000 | sed "s/\$/\tsome payload that takes a little room/"
        sleep "$0"
      done | psql "$1" -qc "COPY copied FROM STDIN" || sleep 1
    done' "$COPY_PAUSE_SECONDS" "$PG_URL/$LOAD_DB" >"$WORK/copy.log" 2>&1 &
  STARTED+=($!)
  echo "== COPY running in database $LOAD_DB (bursts every ${COPY_PAUSE_SECONDS}s)"
}

echo "== logs in $WORK"
busy_cores
long_copy

if [ "${LOAD_ONLY:-}" = "1" ]; then
  echo "== load only: Ctrl-C to stop"
  # Waiting on a background sleep lets a signal reach the trap at once.
  sleep infinity &
  STARTED+=($!)
  wait $! || true
  exit 0
fi

failed=0
for run in $(seq "$RUNS"); do
  clone="$WORK/run-$run"
  git clone -q "$ROOT" "$clone"
  started=$(date +%s)
  setsid bash -c 'cd "$0" && CI=true exec bash .ci/run' "$clone" >"$WORK/run-$run.log" 2>&1 &
  ci_run=$!
  STARTED+=("$ci_run")
  if wait "$ci_run"; then
    outcome=passed
  else
    outcome=FAILED
    failed=$((failed + 1))
  fi
  unset 'STARTED[${#STARTED[@]}-1]'
  seconds=$(($(date +%s) - started))
  printf '== run %s of %s: %s in %dm%02ds (log: %s)\n' "$run" "$RUNS" "$outcome" $((seconds / 60)) $((seconds % 60)) "$WORK/run-$run.log"
  # The clone's node_modules is large: a failure keeps its log and test-artifacts (screenshots, app log).
  if [ "$outcome" = FAILED ] && [ -d "$clone/test-artifacts" ]; then
    mv "$clone/test-artifacts" "$WORK/run-$run-artifacts"
  fi
  rm -rf "$clone"
done

echo "== $((RUNS - failed)) of $RUNS runs passed"
[ "$failed" -eq 0 ]
