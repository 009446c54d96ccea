#!/usr/bin/env bash
# Times a point-in-time restore with pgBackRest, as docs/deployment.md ("Continuous backup and
# point-in-time restore") describes it, for docs/performance.md: a throw-away PostgreSQL 15 primary
# archiving to a repository in a temporary folder gets ROWS rows (default 1000000) in a dataset-like
# table, a full backup, then more writes; the restore target is taken between two of them; the
# primary is destroyed and restored to the target. Prints the backup's and the restore's seconds and
# checks that exactly the rows committed by the target came back.
#
#   scripts/restore-drill.sh [ROWS] [backup|wal]
# `wal`: the rows are written after the full backup, so the restore replays them from the archived
# WAL instead of copying them from the backup (the slower case: a backup a week old).
set -euo pipefail

ROWS=${1:-1000000}
WHERE_ROWS=${2:-backup}
BIN=/usr/lib/postgresql/15/bin
for tool in pgbackrest "$BIN/initdb"; do
  command -v "$tool" >/dev/null || { echo "restore-drill: $tool is missing (apt-get install pgbackrest postgresql-15)" >&2; exit 1; }
done
DIR=$(mktemp -d "${TMPDIR:-/tmp}/restore-drill.XXXXXX")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
OWNER=()
[ "$(id -u)" = 0 ] && OWNER=(setpriv --reuid=postgres --regid=postgres --init-groups --reset-env env PATH="$PATH" HOME="$DIR")
as_owner() { "${OWNER[@]}" "$@"; }
mkdir -p "$DIR/repo" "$DIR/log" "$DIR/lock"
chmod 755 "$DIR"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$DIR"
cat >"$DIR/pgbackrest.conf" <<CONF
[global]
repo1-path=$DIR/repo
repo1-retention-full=2
log-path=$DIR/log
lock-path=$DIR/lock
log-level-console=warn
log-level-file=off
start-fast=y
compress-type=lz4
process-max=2
[drill]
pg1-path=$DIR/pgdata
pg1-port=$PORT
pg1-socket-path=$DIR
CONF
chmod 644 "$DIR/pgbackrest.conf"
backrest() { as_owner pgbackrest --config="$DIR/pgbackrest.conf" --stanza=drill "$@"; }
start() {
  as_owner "$BIN/pg_ctl" -D "$DIR/pgdata" -l "$DIR/server.log" -w start -o "-p $PORT -c listen_addresses=127.0.0.1 -k $DIR \
    -c archive_mode=on -c archive_command='pgbackrest --config=$DIR/pgbackrest.conf --stanza=drill archive-push %p' \
    -c max_wal_size=4GB" >/dev/null
}
sql() { as_owner "$BIN/psql" -X -q -At -h "$DIR" -p "$PORT" -U postgres -d postgres -c "$1"; }
cleanup() {
  as_owner "$BIN/pg_ctl" -D "$DIR/pgdata" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT

as_owner "$BIN/initdb" -D "$DIR/pgdata" -U postgres --auth=trust -E UTF8 >/dev/null
start
backrest stanza-create
# Rows like an uploaded dataset's: a city, a number, a date and a run id.
sql "CREATE TABLE drill (id bigserial PRIMARY KEY, city text, amount numeric, day date, _run_id uuid DEFAULT gen_random_uuid())"
fill() { sql "INSERT INTO drill (city, amount, day) SELECT 'city ' || (i % 500), i * 1.5, date '2020-01-01' + (i % 1500) FROM generate_series(1, $ROWS) i"; }
[ "$WHERE_ROWS" = backup ] && fill
started=$(date +%s.%N)
backrest --type=full backup
backup_seconds=$(echo "$(date +%s.%N) - $started" | bc)
# pgBackRest restores from a backup that ended before the target, by its stop time in whole seconds.
sleep 2
[ "$WHERE_ROWS" = wal ] && fill
size=$(sql "SELECT pg_size_pretty(pg_database_size('postgres'))")
sql "INSERT INTO drill (city, amount, day) VALUES ('before the target', 1, current_date)"
target=$(sql "SELECT clock_timestamp()")
sql "INSERT INTO drill (city, amount, day) VALUES ('after the target', 2, current_date)"
expected=$(sql "SELECT count(*) FROM drill WHERE city <> 'after the target'")
sql "SELECT pg_switch_wal()" >/dev/null
sleep 1
backrest check
as_owner "$BIN/pg_ctl" -D "$DIR/pgdata" -m immediate -w stop >/dev/null
rm -rf "$DIR/pgdata"
as_owner mkdir -m 700 "$DIR/pgdata"
started=$(date +%s.%N)
backrest --type=time "--target=$target" --target-action=promote restore
start
until [ "$(sql 'SELECT pg_is_in_recovery()')" = f ]; do sleep 0.1; done
restore_seconds=$(echo "$(date +%s.%N) - $started" | bc)
restored=$(sql "SELECT count(*) FROM drill")
echo "rows: $ROWS in the $WHERE_ROWS ($size); full backup: ${backup_seconds}s; restore to the target until writes are taken: ${restore_seconds}s; rows back: $restored of $expected expected"
[ "$restored" = "$expected" ]
