#!/usr/bin/env bash
# `npm run cluster`: a local cluster for trying durable runs (docs/durability.md). Starts a
# throwaway PostgreSQL server (scripts/pg-server.sh) in a temporary folder, migrates and seeds
# a database on it, builds the app when it is not built, then serves it from 2 web instances
# (ports 3000 and 3001, RUN_WORKERS=0: they accept and stream runs) and 2 workers
# (`npm run worker`: they execute them). Ctrl-C stops everything and removes the folder.
# Knobs: WEB_PORTS (default "3000 3001"), WORKERS (default 2), PG_PORT (default 55433),
# CLUSTER_DIR (keep the database between tries; default a new temporary folder).
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
WEB_PORTS="${WEB_PORTS:-3000 3001}"
WORKERS="${WORKERS:-2}"
export PG_PORT="${PG_PORT:-55433}"
keep=1
if [ -z "${CLUSTER_DIR:-}" ]; then
  CLUSTER_DIR="$(mktemp -d)"
  keep=0
fi
mkdir -p "$CLUSTER_DIR"
chmod 777 "$CLUSTER_DIR"
PG_DIR="$CLUSTER_DIR/pg"
pids=()
stop_all() {
  trap - INT TERM EXIT
  echo
  echo "Stopping the cluster..."
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash scripts/pg-server.sh stop "$PG_DIR" >/dev/null 2>&1 || true
  [ "$keep" -eq 1 ] || rm -rf "$CLUSTER_DIR"
}
trap stop_all INT TERM EXIT

ADMIN_URL="$(bash scripts/pg-server.sh start "$PG_DIR" | tail -n 1)"
export DATABASE_URL="${ADMIN_URL%/postgres}/phylactery"
node -e '
  const pg = require("pg");
  const c = new pg.Client({ connectionString: process.argv[1] });
  c.connect()
    .then(() => c.query("SELECT 1 FROM pg_database WHERE datname = $1", ["phylactery"]))
    .then((r) => (r.rowCount ? null : c.query("CREATE DATABASE phylactery")))
    .then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });
' "$ADMIN_URL"
bash scripts/db-deploy.sh >/dev/null
node scripts/run-ts.mjs prisma/seed.ts
[ -f .next/BUILD_ID ] || npx next build
# One secret for every process: a session or an approval challenge made on one instance is
# checked on another. Kept in the cluster's folder (owner-only).
export SECRETS_DIR="$CLUSTER_DIR/secrets"
export WORKSPACES_DIR="$CLUSTER_DIR/workspaces"
mkdir -p "$SECRETS_DIR" "$WORKSPACES_DIR"
chmod 700 "$SECRETS_DIR"
export AUTH_SECRET="${AUTH_SECRET:-$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')}"
export APPROVAL_SECRET="${APPROVAL_SECRET:-$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')}"
export NODE_ENV=production

for port in $WEB_PORTS; do
  RUN_WORKERS=0 node node_modules/next/dist/bin/next start -p "$port" -H 127.0.0.1 > "$CLUSTER_DIR/web-$port.log" 2>&1 &
  pids+=("$!")
done
for i in $(seq 1 "$WORKERS"); do
  node scripts/run-ts.mjs lib/runs/worker-main.ts > "$CLUSTER_DIR/worker-$i.log" 2>&1 &
  pids+=("$!")
done
for port in $WEB_PORTS; do
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1 && break
    sleep 0.5
  done
done
echo
echo "Phylactery cluster: PostgreSQL at $DATABASE_URL, $WORKERS workers, logs in $CLUSTER_DIR"
for port in $WEB_PORTS; do echo "  http://localhost:$port  (web instance, RUN_WORKERS=0)"; done
echo "Demo account: ${DEMO_EMAIL:-demo@phylactery.dev} / ${DEMO_PASSWORD:-phylactery}; approver@phylactery.dev and viewer@phylactery.dev, same password"
echo "Ctrl-C stops everything."
wait
