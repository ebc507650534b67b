import "server-only";
import type { Prisma } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import type { SessionUser } from "../http/with-user";
import { reachableRoles, scopeOf } from "./caller";
import { matchesMetadata, parseMetadata } from "./metadata";
import { type PlatformThreadStatus, platformThreadStatus, WAITING_THREAD_STATUSES } from "./status";
import { type GraphCache, type PlatformThread, platformThread, type ResolvedThread, threadMetadata } from "./threads";

/**
 * `POST /threads/search` and `/threads/count` (docs/langgraph-api.md#threads): the Threads of
 * the workspaces the caller reaches and the caller's own API threads. Workspace, status and ids
 * are filtered in SQL; metadata (a JSON text column) and values (in checkpoints) are matched
 * on the rows SQL found, at most {@link SEARCH_SCAN} of each kind.
 */

/** The most rows of each kind (Threads, API threads) one search considers after the SQL filters. */
export const SEARCH_SCAN = 5000;

/** Threads whose state one search reads at the same time. */
const READS_AT_ONCE = 8;

/** The filters of a thread search. */
export interface ThreadFilters {
  metadata?: Record<string, unknown> | undefined;
  values?: Record<string, unknown> | undefined;
  status?: PlatformThreadStatus | undefined;
  ids?: string[] | undefined;
}

/** Paging and order of a thread search. */
export interface ThreadPage {
  limit: number;
  offset: number;
  sort_by?: "thread_id" | "status" | "created_at" | "updated_at" | "state_updated_at" | undefined;
  sort_order?: "asc" | "desc" | undefined;
}

/** Our thread statuses behind each Platform status, as SQL (lib/langgraph-api/status.ts). */
function statusWhere(status: PlatformThreadStatus | undefined): Prisma.ThreadWhereInput {
  const free = { leaseRunId: null };
  switch (status) {
    case undefined:
      return {};
    case "busy":
      return { leaseRunId: { not: null } };
    case "interrupted":
      return { ...free, status: { in: [...WAITING_THREAD_STATUSES] } };
    case "error":
      return { ...free, status: { in: ["failed", "running"] } };
    case "idle":
      return { ...free, status: { notIn: ["running", "failed", ...WAITING_THREAD_STATUSES] } };
  }
}

/** One candidate: enough to filter and sort before the page is loaded in full. */
interface Candidate {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  status: PlatformThreadStatus;
  metadata: Record<string, unknown>;
  load: () => Promise<ResolvedThread>;
}

async function candidates(db: Db, user: SessionUser, f: ThreadFilters): Promise<Candidate[]> {
  const roles = await reachableRoles(db, user);
  const scope = scopeOf(user);
  const ids = f.ids ? { id: { in: f.ids } } : {};
  // The flow a thread runs is its graph and assistant: filter those keys in SQL.
  const bound = [f.metadata?.graph_id, f.metadata?.assistant_id].filter((v) => v !== undefined);
  const flowIds = new Set(bound);
  const flow = bound.length === 0 ? {} : flowIds.size === 1 && typeof bound[0] === "string" ? { flowId: bound[0] } : { id: { in: [] } };
  const threads = await db.thread.findMany({
    where: { AND: [{ flow: { workspaceId: { in: [...roles.keys()] } } }, ids, flow, statusWhere(f.status)] },
    include: { flow: true, flowVersion: true },
    orderBy: { createdAt: "desc" },
    take: SEARCH_SCAN,
  });
  const out: Candidate[] = threads.map((t) => {
    const role = roles.get(t.flow.workspaceId);
    return {
      id: t.id,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      status: platformThreadStatus(t),
      metadata: threadMetadata(t),
      load: async () => ({ kind: "thread", thread: t, role: role ?? "viewer" }),
    };
  });
  if (f.status === undefined || f.status === "idle") {
    const api = await db.apiThread.findMany({ where: { userId: user.id, ...(scope !== null ? { workspaceId: scope } : {}), ...ids }, orderBy: { createdAt: "desc" }, take: SEARCH_SCAN });
    // A first run that died between making the Thread and removing this row leaves both: the Thread wins.
    const bound = new Set((await db.thread.findMany({ where: { id: { in: api.map((r) => r.id) } }, select: { id: true } })).map((t) => t.id));
    for (const row of api.filter((r) => !bound.has(r.id)))
      out.push({ id: row.id, createdAt: row.createdAt, updatedAt: row.updatedAt, status: "idle", metadata: parseMetadata(row.metadata), load: async () => ({ kind: "api", row }) });
  }
  return out.filter((c) => matchesMetadata(c.metadata, f.metadata));
}

const KEY: Record<NonNullable<ThreadPage["sort_by"]>, (c: Candidate) => string | number> = {
  thread_id: (c) => c.id,
  status: (c) => c.status,
  created_at: (c) => c.createdAt.getTime(),
  updated_at: (c) => c.updatedAt.getTime(),
  state_updated_at: (c) => c.updatedAt.getTime(),
};

/**
 * The threads the caller sees that match every filter, as Platform Threads, newest first
 * unless `sort_by`/`sort_order` say otherwise (ties by id). A `values` filter reads each
 * candidate's state (one checkpoint read per thread): narrow with status, ids or metadata.
 */
export async function searchThreads(db: Db, user: SessionUser, f: ThreadFilters, page: ThreadPage): Promise<PlatformThread[]> {
  const key = KEY[page.sort_by ?? "created_at"];
  const dir = (page.sort_order ?? "desc") === "asc" ? 1 : -1;
  const sorted = (await candidates(db, user, f)).sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x < y ? -dir : x > y ? dir : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const cache: GraphCache = new Map();
  if (!f.values) {
    // A few checkpoint reads at a time: a page may hold up to 1000 threads.
    const pageRows = sorted.slice(page.offset, page.offset + page.limit);
    const out: PlatformThread[] = [];
    for (let i = 0; i < pageRows.length; i += READS_AT_ONCE) {
      out.push(...(await Promise.all(pageRows.slice(i, i + READS_AT_ONCE).map(async (c) => platformThread(db, await c.load(), cache)))));
    }
    return out;
  }
  const found: PlatformThread[] = [];
  let skipped = 0;
  for (const c of sorted) {
    const t = await platformThread(db, await c.load(), cache);
    if (!matchesMetadata(t.values, f.values)) continue;
    if (skipped < page.offset) skipped += 1;
    else found.push(t);
    if (found.length >= page.limit) break;
  }
  return found;
}

/** How many threads {@link searchThreads} would find without paging. */
export async function countThreads(db: Db, user: SessionUser, f: ThreadFilters): Promise<number> {
  const list = await candidates(db, user, f);
  if (!f.values) return list.length;
  const cache: GraphCache = new Map();
  let n = 0;
  for (const c of list) if (matchesMetadata((await platformThread(db, await c.load(), cache)).values, f.values)) n += 1;
  return n;
}
