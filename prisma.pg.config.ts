import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { defineConfig } from "prisma/config";

/**
 * Prisma CLI configuration for PostgreSQL (`--config prisma.pg.config.ts`): the schema
 * generated from prisma/schema.prisma (scripts/pg-schema.mjs), its own migrations folder, and
 * the pg driver adapter on `DATABASE_URL` (a `postgresql://` URL; the JS schema engine, so no
 * downloaded engines). docs/databases.md says when to use it.
 */

/** PostgreSQL type oids of `"char"` (18) and `name` (19), and of `text` (25). */
const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;

/**
 * The schema engine introspects catalog tables whose columns are `name` and `"char"`, types
 * the pg adapter 6.19 cannot map; their text form is plain text, so label them text.
 */
function relabel<T>(result: T): T {
  const fields = (result as { fields?: { dataTypeID: number }[] } | undefined)?.fields;
  for (const f of fields ?? []) if (f.dataTypeID === CHAR_OID || f.dataTypeID === NAME_OID) f.dataTypeID = TEXT_OID;
  return result;
}

/** Wraps the promise form of `query` (callback calls return undefined and pass through). */
function relabelQuery(target: { query: (...args: never[]) => unknown }): void {
  const query = target.query.bind(target) as (...args: unknown[]) => unknown;
  target.query = ((...args: unknown[]) => {
    const r = query(...args);
    return r instanceof Promise ? r.then(relabel) : r;
  }) as typeof target.query;
}

/**
 * A pool whose results carry no `name`/`"char"` oids: the adapter queries the pool directly
 * outside transactions and the clients it hands out inside them, so both are wrapped. `connect`
 * itself is left alone: the pool calls it with a callback.
 */
function relabelPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 2 });
  relabelQuery(pool as never);
  pool.on("connect", (client) => relabelQuery(client as never));
  return pool;
}

/** The URL with another database name. */
function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/postgres/schema.prisma",
  migrations: { path: "prisma/postgres/migrations" },
  async adapter() {
    const url = process.env.DATABASE_URL ?? "";
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error("prisma.pg.config.ts: set DATABASE_URL to a postgresql:// URL");
    const factory = new PrismaPg(relabelPool(url));
    // `migrate dev`/`migrate diff --from-migrations` replay migrations on a shadow database.
    // The adapter's own shadow pool would neither relabel nor, for a URL config, switch
    // databases (the URL's name wins), so make the shadow database here and drop it after.
    factory.connectToShadowDb = async () => {
      const name = `prisma_shadow_${crypto.randomUUID().replace(/-/g, "")}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const adapter = await new PrismaPg(relabelPool(withDatabase(url, name)), { disposeExternalPool: true }).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      };
      return adapter;
    };
    return factory;
  },
});
