#!/usr/bin/env bash
# Applies the committed migrations to DATABASE_URL: prisma/migrations for a SQLite `file:` URL
# (prisma.config.ts), prisma/postgres/migrations for a postgres:// or postgresql:// URL
# (prisma.pg.config.ts). Usage: DATABASE_URL=... bash scripts/db-deploy.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export DATABASE_URL="${DATABASE_URL:-file:./.data/phylactery.db}"
url="$DATABASE_URL"
case "$url" in
  postgres://* | postgresql://*) exec npx --no-install prisma migrate deploy --config prisma.pg.config.ts ;;
  file:*) exec npx --no-install prisma migrate deploy ;;
  *)
    echo "DATABASE_URL must be a file: URL (SQLite) or a postgresql:// URL (PostgreSQL)." >&2
    exit 2
    ;;
esac
