#!/usr/bin/env bash
# The whole test command: install, then typecheck, lint, unit, conformance, integration, e2e.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
npm ci
bash scripts/ensure-chromium.sh
npm run typecheck
npm run lint
npx vitest run --project unit
npx vitest run --project conformance
# The HTTP integration tests serve the built app, so build first.
npx next build
npx vitest run --project integration
npx playwright test
