#!/usr/bin/env bash
# The whole test command: install, then typecheck, lint, unit, conformance, integration (on
# SQLite, then again on a throwaway PostgreSQL server), e2e.
# TEST_SIDE_BY_SIDE=1 runs the e2e beside the PostgreSQL pass instead of after it (docs/testing.md).
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
npm ci
bash scripts/ensure-chromium.sh
# The route types first (.next/types, which tsconfig.json includes), so that `tsc` checks all
# that `next build` would, and the test files too; the build below then skips its own check.
npx next typegen
npm run typecheck
npm run lint
# One vitest start for both (each start transforms the same modules again).
npx vitest run --project unit --project conformance
# The HTTP integration tests serve the built app, so build first (types checked above, next.config.ts).
NEXT_BUILD_SKIP_TYPECHECK=1 npx next build
# Integration files (TEST_INT_WORKERS of them at a time, vitest.config.ts); the timing-sensitive ones alone after them.
npx vitest run --project integration --project integration-alone
# The e2e, beside the PostgreSQL pass when asked: its output is shown once it ends.
E2E_PID=""
E2E_LOG=""
if [ "${TEST_SIDE_BY_SIDE:-0}" = "1" ]; then
  E2E_LOG="$(mktemp)"
  npx playwright test >"$E2E_LOG" 2>&1 &
  E2E_PID=$!
fi
# The same build on PostgreSQL: a loopback cluster in a temporary folder (scripts/pg-server.sh,
# installed when missing), a fresh database per test (a copy of one migrated template database);
# stopped and removed whatever happens. Files that cannot depend on the database kind run on
# SQLite only (vitest.config.ts, `sqliteOnly`).
PG_DIR="$(mktemp -d)"
stop_pg() {
  bash scripts/pg-server.sh stop "$PG_DIR" >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  if [ -n "$E2E_PID" ]; then kill "$E2E_PID" 2>/dev/null || true; fi
}
trap stop_pg EXIT
PG_URL="$(bash scripts/pg-server.sh start "$PG_DIR" | tail -n 1)"
TEST_DATABASE_URL="$PG_URL" DATABASE_URL="$PG_URL" npx vitest run --project conformance
if [ -z "$E2E_PID" ]; then
  TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration --project integration-alone
  stop_pg
  trap - EXIT
  npx playwright test
  exit 0
fi
TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration
E2E_RC=0
wait "$E2E_PID" || E2E_RC=$?
E2E_PID=""
echo "--- e2e (ran beside the PostgreSQL pass)"
cat "$E2E_LOG"
rm -f "$E2E_LOG"
# The timing-sensitive files alone, once the e2e no longer loads the CPU.
TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration-alone
stop_pg
trap - EXIT
exit "$E2E_RC"
