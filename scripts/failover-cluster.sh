#!/usr/bin/env bash
# The failover topology of docs/deployment.md ("Automatic failover") on one machine, for trying it
# and for test/reliability/failover.reliability-spec.ts: three PostgreSQL 15 nodes run by Patroni, a
# three-member etcd and HAProxy, all on free loopback ports, everything under one folder.
#
#   scripts/failover-cluster.sh up DIR           start it all; writes DIR/cluster.env (below)
#   scripts/failover-cluster.sh down DIR         stop everything started in DIR (DIR stays)
#   scripts/failover-cluster.sh leader DIR       prints the leader's name (pg1, pg2 or pg3)
#   scripts/failover-cluster.sh kill-node DIR N  kill -9 node N's Patroni and PostgreSQL: its machine dies
#   scripts/failover-cluster.sh start-node DIR N start node N's Patroni again (it rejoins as a replica)
#   scripts/failover-cluster.sh kill-etcd DIR M  kill -9 etcd member M (etcd1..etcd3)
#   scripts/failover-cluster.sh start-etcd DIR M start etcd member M again
#
# DIR/cluster.env holds DATABASE_URL (HAProxy's write port: the leader) and DATABASE_READ_URL
# (HAProxy's read port: the replicas), database `marketplace`; source it and start the app:
#   . DIR/cluster.env && PROCESS_ROLE=web node dist/src/main.js
# Settings: PATRONI_TTL (default 12), PATRONI_LOOP_WAIT (1), PATRONI_RETRY_TIMEOUT (5): see the
# docs for production values; CLUSTER_FSYNC=off for throw-away test data. Needs Debian's
# postgresql-15, patroni, etcd-server, etcd-client and haproxy. As root, every daemon runs as the
# postgres system user (PostgreSQL refuses root).
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
TTL=${PATRONI_TTL:-12}
LOOP_WAIT=${PATRONI_LOOP_WAIT:-1}
RETRY_TIMEOUT=${PATRONI_RETRY_TIMEOUT:-5}
FSYNC=${CLUSTER_FSYNC:-on}
NODES=(pg1 pg2 pg3)
MEMBERS=(etcd1 etcd2 etcd3)

usage() {
  sed -n '2,22p' "$0" >&2
  exit 2
}

[ $# -ge 2 ] || usage
COMMAND=$1
DIR=$(realpath -m "$2")

require() {
  for tool in patroni etcd etcdctl haproxy curl python3 setpriv; do
    command -v "$tool" >/dev/null || {
      echo "failover-cluster: $tool is missing (apt-get install patroni etcd-server etcd-client haproxy)" >&2
      exit 1
    }
  done
  [ -x "$PG_BIN/postgres" ] || {
    echo "failover-cluster: PostgreSQL 15 is missing ($PG_BIN)" >&2
    exit 1
  }
}

# As root, the prefix that runs a command as the postgres system user (setpriv execs: a daemon's
# pid stays its own).
OWNER=()
if [ "$(id -u)" = 0 ]; then
  OWNER=(setpriv --reuid=postgres --regid=postgres --init-groups --reset-env env PATH="$PATH" HOME="$DIR")
fi
as_owner() { "${OWNER[@]}" "$@"; }

# Starts a daemon in its own session, its output in DIR/NAME.log, its pid in DIR/NAME.pid.
daemon() {
  local name=$1
  shift
  setsid "${OWNER[@]}" "$@" >>"$DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$DIR/$name.pid"
}

free_ports() {
  python3 - "$1" <<'EOF'
import socket, sys
sockets = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    sockets.append(s)
print(" ".join(str(s.getsockname()[1]) for s in sockets))
EOF
}

# shellcheck disable=SC1091
load() { . "$DIR/ports.env"; }

wait_for() {
  local what=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      echo "failover-cluster: timed out after ${seconds}s waiting for $what (logs in $DIR)" >&2
      return 1
    fi
    sleep 0.2
  done
}

rest_port() { eval "echo \$REST_$1"; }
pg_port() { eval "echo \$PG_$1"; }

leader() {
  load
  for node in "${NODES[@]}"; do
    if curl -sf -o /dev/null "http://127.0.0.1:$(rest_port "$node")/primary"; then
      echo "$node"
      return 0
    fi
  done
  return 1
}

replicas_streaming() {
  load
  local count=0
  for node in "${NODES[@]}"; do
    curl -sf -o /dev/null "http://127.0.0.1:$(rest_port "$node")/replica" && count=$((count + 1))
  done
  [ "$count" -eq 2 ]
}

start_etcd() {
  local member=$1 index=${1#etcd}
  load
  local client peer
  client=$(eval "echo \$ETCD_CLIENT_$index")
  peer=$(eval "echo \$ETCD_PEER_$index")
  local state=new
  [ -d "$DIR/$member/member" ] && state=existing
  daemon "$member" etcd --name "$member" --data-dir "$DIR/$member" \
    --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "$ETCD_CLUSTER" --initial-cluster-state "$state" --initial-cluster-token "$SCOPE" \
    --heartbeat-interval 100 --election-timeout 1000
}

write_patroni_config() {
  local node=$1
  load
  cat >"$DIR/$node.yml" <<EOF
scope: $SCOPE
namespace: /dm/
name: $node
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:$(rest_port "$node")
  connect_address: 127.0.0.1:$(rest_port "$node")
etcd3:
  hosts: $ETCD_HOSTS
bootstrap:
  dcs:
    ttl: $TTL
    loop_wait: $LOOP_WAIT
    retry_timeout: $RETRY_TIMEOUT
    # A replica more than 1 MB behind never becomes the leader.
    maximum_lag_on_failover: 1048576
    # One replica confirms every commit before it is answered, and only that replica may be promoted:
    # a commit the app answered is on two machines. Not strict: with both replicas gone the leader
    # goes on alone rather than stopping every write.
    synchronous_mode: true
    synchronous_mode_strict: false
    synchronous_node_count: 1
    # Should etcd lose its quorum, the leader stays the leader while it still reaches every other
    # node's Patroni, instead of stopping all writes (Patroni 3.0+).
    failsafe_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        synchronous_commit: 'on'
        fsync: '$FSYNC'
  initdb:
    - encoding: UTF8
    - data-checksums
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
postgresql:
  listen: 127.0.0.1:$(pg_port "$node")
  connect_address: 127.0.0.1:$(pg_port "$node")
  data_dir: $DIR/$node/data
  bin_dir: $PG_BIN
  pgpass: $DIR/$node/pgpass
  authentication:
    superuser:
      username: postgres
      password: $SUPERUSER_PASSWORD
    replication:
      username: replicator
      password: $REPLICATION_PASSWORD
    rewind:
      username: rewinder
      password: $REWIND_PASSWORD
  parameters:
    unix_socket_directories: $DIR/$node
EOF
  chmod 600 "$DIR/$node.yml"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR/$node.yml"
  return 0
}

start_node() {
  daemon "$1" patroni "$DIR/$1.yml"
}

write_haproxy_config() {
  load
  {
    cat <<EOF
global
  maxconn 1000
defaults
  mode tcp
  timeout connect 2s
  # Pooled connections sit idle between requests, and the workers' liveness connections for good.
  timeout client 24h
  timeout server 24h
  timeout check 1s
  option tcpka
  # Patroni's REST API answers each node's part: GET /primary 200 on the leader only, GET /replica
  # 200 on a running replica. A node failing two checks in a row (1 s) is out, and its connections
  # are cut at once (shutdown-sessions): nothing goes on writing to a demoted primary.
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
listen primary
  bind 127.0.0.1:$WRITE_PORT
  option httpchk
  http-check send meth GET uri /primary
  http-check expect status 200
EOF
    for node in "${NODES[@]}"; do
      echo "  server $node 127.0.0.1:$(pg_port "$node") check port $(rest_port "$node")"
    done
    cat <<EOF
listen replicas
  bind 127.0.0.1:$READ_PORT
  balance leastconn
  option httpchk
  http-check send meth GET uri /replica
  http-check expect status 200
EOF
    for node in "${NODES[@]}"; do
      echo "  server $node 127.0.0.1:$(pg_port "$node") check port $(rest_port "$node")"
    done
  } >"$DIR/haproxy.cfg"
}

# kill -9 a daemon by its pid file, and for a node its postmaster and the postmaster's children.
# Only a process whose command line names DIR is ours: a stale pid file must never hit another process.
ours() { [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -qF "$DIR"; }

kill_hard() {
  local name=$1 pid
  if [ -f "$DIR/$name.pid" ]; then
    pid=$(cat "$DIR/$name.pid")
    ours "$pid" && kill -9 "$pid" 2>/dev/null
  fi
  local postmaster="$DIR/$name/data/postmaster.pid"
  if [ -f "$postmaster" ]; then
    pid=$(head -1 "$postmaster")
    if ours "$pid"; then
      for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do kill -9 "$child" 2>/dev/null || true; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  return 0
}

# SIGTERM to each named daemon at once, then kill -9 whatever is still up after 10 s.
stop_gently() {
  local name pid pids=()
  for name in "$@"; do
    [ -f "$DIR/$name.pid" ] || continue
    pid=$(cat "$DIR/$name.pid")
    ours "$pid" && kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 1 50); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.2
  done
  for name in "$@"; do kill_hard "$name"; done
}

case "$COMMAND" in
up)
  require
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  read -r -a ports <<<"$(free_ports 14)"
  password() { openssl rand -hex 16; }
  {
    echo "SCOPE=dm-$(openssl rand -hex 4)"
    echo "SUPERUSER_PASSWORD=$(password)"
    echo "REPLICATION_PASSWORD=$(password)"
    echo "REWIND_PASSWORD=$(password)"
    for index in 1 2 3; do
      echo "ETCD_CLIENT_$index=${ports[$((index - 1))]}"
      echo "ETCD_PEER_$index=${ports[$((index + 2))]}"
      echo "PG_pg$index=${ports[$((index + 5))]}"
      echo "REST_pg$index=${ports[$((index + 8))]}"
    done
    echo "WRITE_PORT=${ports[12]}"
    echo "READ_PORT=${ports[13]}"
    echo "ETCD_CLUSTER=etcd1=http://127.0.0.1:${ports[3]},etcd2=http://127.0.0.1:${ports[4]},etcd3=http://127.0.0.1:${ports[5]}"
    echo "ETCD_HOSTS=127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}"
  } >"$DIR/ports.env"
  chmod 600 "$DIR/ports.env"
  [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$DIR"
  load
  for member in "${MEMBERS[@]}"; do start_etcd "$member"; done
  wait_for "etcd" 60 as_owner etcdctl --endpoints="$ETCD_HOSTS" endpoint health
  for node in "${NODES[@]}"; do
    as_owner mkdir -p "$DIR/$node"
    as_owner chmod 700 "$DIR/$node"
    write_patroni_config "$node"
  done
  # The first node bootstraps alone, so it is the leader; the others then copy it.
  start_node pg1
  wait_for "the first node to lead" 120 leader
  start_node pg2
  start_node pg3
  write_haproxy_config
  daemon haproxy haproxy -db -f "$DIR/haproxy.cfg"
  wait_for "both replicas to stream" 180 replicas_streaming
  export PGPASSWORD=$SUPERUSER_PASSWORD
  wait_for "HAProxy to route to the leader" 30 psql -h 127.0.0.1 -p "$WRITE_PORT" -U postgres -d postgres -c 'SELECT 1'
  psql -q -h 127.0.0.1 -p "$WRITE_PORT" -U postgres -d postgres -c 'CREATE DATABASE marketplace'
  {
    echo "DATABASE_URL=postgres://postgres:$SUPERUSER_PASSWORD@127.0.0.1:$WRITE_PORT/marketplace"
    echo "DATABASE_READ_URL=postgres://postgres:$SUPERUSER_PASSWORD@127.0.0.1:$READ_PORT/marketplace"
    echo "ETCD_ENDPOINTS=$ETCD_HOSTS"
    for node in "${NODES[@]}"; do echo "PATRONI_${node^^}=http://127.0.0.1:$(rest_port "$node")"; done
  } >"$DIR/cluster.env"
  echo "failover-cluster: up in $DIR; leader $(leader); settings in $DIR/cluster.env"
  ;;
down)
  [ -f "$DIR/ports.env" ] || exit 0
  # A Patroni stopped gently stops its PostgreSQL; a node still up after 10 s is killed, PostgreSQL too.
  stop_gently haproxy "${NODES[@]}"
  stop_gently "${MEMBERS[@]}"
  ;;
leader)
  leader
  ;;
kill-node)
  kill_hard "${3:?node name}"
  ;;
start-node)
  start_node "${3:?node name}"
  ;;
kill-etcd)
  kill_hard "${3:?member name}"
  ;;
start-etcd)
  start_etcd "${3:?member name}"
  ;;
*)
  usage
  ;;
esac
