#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, on loopback only.
#   bash scripts/pg-server.sh start DIR   creates the cluster in DIR (once) and starts it;
#                                         prints its admin URL (postgresql://postgres@127.0.0.1:PORT/postgres)
#   bash scripts/pg-server.sh stop DIR    stops it (fast shutdown); DIR is left for the caller to remove
# PG_PORT sets the port (default 55432). Trust authentication is safe only because the server
# listens on 127.0.0.1 and on a socket inside DIR, never on another address. As root, the
# cluster belongs to user postgres (PostgreSQL refuses to run as root).
set -euo pipefail
cmd="${1:-}"; dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: bash scripts/pg-server.sh start|stop DIR" >&2
  exit 2
fi
PORT="${PG_PORT:-55432}"
BIN="$(bash "$(dirname "$0")/ensure-postgres.sh")"
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/bash -c "$(printf '%q ' "$@")"; else "$@"; fi
}
case "$cmd" in
  start)
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_owner "$BIN/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    # fsync off: a test cluster is thrown away, and syncing costs most of a small write's time.
    if ! as_owner "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -s \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start; then
      tail -n 5 "$dir/server.log" >&2
      exit 1
    fi
    echo "postgresql://postgres@127.0.0.1:${PORT}/postgres"
    ;;
  stop)
    dir="$(cd "$dir" && pwd)"
    as_owner "$BIN/pg_ctl" -D "$dir" -m fast -w -s stop
    ;;
  *)
    echo "usage: bash scripts/pg-server.sh start|stop DIR" >&2
    exit 2
    ;;
esac
