#!/usr/bin/env bash
# Adds one migration to BOTH databases after a change of prisma/schema.prisma:
#   npm run db:migration -- <name>      (name: lower-case letters, digits and _)
# 1. regenerates prisma/postgres/schema.prisma (scripts/pg-schema.mjs);
# 2. writes prisma/migrations/<stamp>_<name>/migration.sql: the SQL from the SQLite migrations
#    to the schema (replayed on an in-memory shadow database, prisma.config.ts);
# 3. writes prisma/postgres/migrations/<stamp>_<name>/migration.sql the same way for PostgreSQL,
#    which needs a running server for its shadow database: TEST_DATABASE_URL (an admin URL,
#    e.g. postgresql://postgres@127.0.0.1:55432/postgres) when set, else a throwaway cluster
#    started by scripts/pg-server.sh on PG_PORT (default 55432) and stopped at the end;
# 4. regenerates both clients. Review both files and commit them with the schema change.
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:-}"
if ! [[ "$name" =~ ^[a-z0-9_]+$ ]]; then
  echo "usage: npm run db:migration -- <name>   (lower-case letters, digits and _, e.g. add_run_jobs)" >&2
  exit 2
fi
stamp="$(date -u +%Y%m%d%H%M%S)"
folder="${stamp}_${name}"
tmp="$(mktemp -d)"
pgdir=""
cleanup() {
  if [ -n "$pgdir" ]; then bash scripts/pg-server.sh stop "$pgdir" || true; rm -rf "$pgdir"; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

node scripts/pg-schema.mjs
empty="-- This is an empty migration."

# The CLI opens DATABASE_URL even for a diff; a scratch file keeps the real database untouched.
DATABASE_URL="file:$tmp/scratch.db" npx --no-install prisma migrate diff \
  --from-migrations prisma/migrations --to-schema-datamodel prisma/schema.prisma --script >"$tmp/sqlite.sql"

admin="${TEST_DATABASE_URL:-}"
if [ -z "$admin" ]; then
  pgdir="$(mktemp -d)" # its own folder: the cluster's owner (postgres when root) must reach it
  admin="$(bash scripts/pg-server.sh start "$pgdir" | tail -n 1)"
fi
DATABASE_URL="$admin" npx --no-install prisma migrate diff --config prisma.pg.config.ts \
  --from-migrations prisma/postgres/migrations --to-schema-datamodel prisma/postgres/schema.prisma --script >"$tmp/pg.sql"

if grep -qxF -- "$empty" "$tmp/sqlite.sql" && grep -qxF -- "$empty" "$tmp/pg.sql"; then
  echo "No schema change: prisma/schema.prisma already matches both migration folders; nothing written." >&2
  exit 1
fi
mkdir -p "prisma/migrations/$folder" "prisma/postgres/migrations/$folder"
cp "$tmp/sqlite.sql" "prisma/migrations/$folder/migration.sql"
cp "$tmp/pg.sql" "prisma/postgres/migrations/$folder/migration.sql"
npx --no-install prisma generate >/dev/null
npx --no-install prisma generate --config prisma.pg.config.ts >/dev/null
echo "Wrote prisma/migrations/$folder/migration.sql and prisma/postgres/migrations/$folder/migration.sql"
