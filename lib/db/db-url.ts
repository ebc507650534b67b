/**
 * The database URL each Prisma client was created from, so that code holding only the
 * client (the checkpointer) can open its own driver connection to the same database.
 * `createDb(url)` records it; a WeakMap lets a client and its URL be collected together.
 * The map is kept on globalThis: Next.js bundles a copy of this module per route and per
 * instrumentation, and the process's one client (lib/db/client.ts `db()`) is made by
 * whichever copy asks first. A map per copy made every other copy miss the URL, so the
 * checkpointer fell back to reading through Prisma (docs/storage.md "Reads").
 */
const g = globalThis as { __phylacteryDbUrls?: WeakMap<object, string> };
g.__phylacteryDbUrls ??= new WeakMap<object, string>();
const urls = g.__phylacteryDbUrls;

/**
 * Records that `db` was created on `url` (`file:` SQLite URL or `postgresql://` URL).
 * @returns `db`, so a factory can `return rememberDbUrl(client, url)`.
 */
export function rememberDbUrl<T extends object>(db: T, url: string): T {
  urls.set(db, url);
  return db;
}

/** The URL recorded for `db` by {@link rememberDbUrl}, or `undefined` when none was. */
export function dbUrlOf(db: object): string | undefined {
  return urls.get(db);
}
