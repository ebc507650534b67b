#!/usr/bin/env bash
# Installs, migrates the database (the SQLite file by default; DATABASE_URL=postgresql://... for
# PostgreSQL), seeds the demo accounts, builds and serves on :3000.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
export DATABASE_URL="${DATABASE_URL:-file:./.data/phylactery.db}"
# RUN_IN=process runs the runs in a worker child of the web process, off its event loop
# (docs/durability.md "The worker child"); not yet the default: an approval edited from its
# detail page did not show its outcome in the e2e suite with it.
export RUN_IN="${RUN_IN:-web}"
PORT="${PORT:-3000}"
# Loopback only unless the operator says otherwise (BIND_HOST=0.0.0.0 behind a reverse proxy).
umask 077  # owner-only database, secrets and workspaces (docs/security.md "Secrets at rest")
mkdir -p .data
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci
bash scripts/db-deploy.sh
node scripts/run-ts.mjs prisma/seed.ts
npx next build
echo
echo "Phylactery is starting on http://localhost:${PORT}"
echo "Demo account: ${DEMO_EMAIL:-demo@phylactery.dev} / ${DEMO_PASSWORD:-phylactery} (owner of \"Demo workspace\": edits flows, runs, decides approvals, manages members)"
echo "Also seeded in \"Demo workspace\", same password:"
echo "  ${DEMO_APPROVER_EMAIL:-approver@phylactery.dev} (approver: runs flows and decides approvals)"
echo "  ${DEMO_VIEWER_EMAIL:-viewer@phylactery.dev} (viewer: sees flows, runs and approvals)"
echo "(set DEMO_EMAIL / DEMO_PASSWORD / DEMO_APPROVER_EMAIL / DEMO_VIEWER_EMAIL to change them)"
exec node node_modules/next/dist/bin/next start -p "$PORT" -H "${BIND_HOST:-127.0.0.1}"
