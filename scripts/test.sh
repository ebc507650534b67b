#!/usr/bin/env bash
# The whole test command: install, then typecheck, lint, unit, conformance, integration (on
# SQLite, then again on a throwaway PostgreSQL server), e2e.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
npm ci
bash scripts/ensure-chromium.sh
npm run typecheck
npm run lint
# One vitest start for both (each start transforms the same modules again).
npx vitest run --project unit --project conformance
# The HTTP integration tests serve the built app, so build first.
npx next build
# Integration files (TEST_INT_WORKERS of them at a time, vitest.config.ts); the latency test alone after them.
npx vitest run --project integration --project integration-alone
# The same build on PostgreSQL: a loopback cluster in a temporary folder (scripts/pg-server.sh,
# installed when missing), a fresh database per test (a copy of one migrated template database);
# stopped and removed whatever happens.
PG_DIR="$(mktemp -d)"
stop_pg() { bash scripts/pg-server.sh stop "$PG_DIR" >/dev/null 2>&1 || true; rm -rf "$PG_DIR"; }
trap stop_pg EXIT
PG_URL="$(bash scripts/pg-server.sh start "$PG_DIR" | tail -n 1)"
TEST_DATABASE_URL="$PG_URL" DATABASE_URL="$PG_URL" npx vitest run --project conformance
TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration --project integration-alone
stop_pg
trap - EXIT
npx playwright test
