import { env } from "../env";
import type { Fanout } from "./fanout";
import { InProcessFanout } from "./in-process-fanout";
import { PgFanout } from "./pg-fanout";

/**
 * A new fan-out for a database URL (lib/events/fanout.ts): PostgreSQL's LISTEN/NOTIFY for a
 * `postgresql://` or `postgres://` URL, else (a SQLite `file:` URL) the in-process one, since
 * SQLite has no notifications between processes (followers of a run on another process poll).
 */
export function fanoutFor(databaseUrl: string): Fanout {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? new PgFanout({ connectionString: databaseUrl }) : new InProcessFanout();
}

const g = globalThis as { __phylacteryFanout?: Fanout };

/**
 * The process-wide fan-out for `DATABASE_URL` (kept on globalThis so that Next.js's module
 * copies share one, hence one PostgreSQL connection per process).
 */
export function fanout(): Fanout {
  g.__phylacteryFanout ??= fanoutFor(env().DATABASE_URL);
  return g.__phylacteryFanout;
}
