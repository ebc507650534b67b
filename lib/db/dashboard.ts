import "server-only";
import { z } from "zod";
import { THREAD_STATUSES, threadStatusShown } from "../run-status";
import type { Prisma } from "../../generated/prisma/client";
import { estimateCost } from "../models/pricing";
import { prismaRunStore } from "../runs/store-prisma";
import type { Db } from "./client";
import { containsText } from "./contains-text";
import type { DashboardRow, DashboardTotals } from "./dashboard-types";
import { memberOf } from "../auth/membership";

export type { DashboardRow, DashboardTotals } from "./dashboard-types";

/**
 * The dashboard's threads ("threads, runs and their status, costs"):
 * every thread of the workspaces the user is a member of (viewers included), filtered by
 * status, flow and a search in the task, with duration, plan steps, tokens and estimated
 * cost. A page costs a fixed number of queries whatever its length: threads (with flow,
 * version and starter), their runs, the runs' `run_started` events (the model), the latest
 * plan event of each thread, and, only when a priced run needs it, the flow versions'
 * agent models.
 */

/** Thread statuses (prisma/schema.prisma Thread.status, lib/runs/run-thread.ts). */
export const ThreadStatus = z.enum(THREAD_STATUSES);
export type ThreadStatus = z.infer<typeof ThreadStatus>;

/** Default and largest page size. */
export const DASHBOARD_PAGE = 50;
export const DASHBOARD_MAX_PAGE = 200;

/** What the dashboard filters by; all optional. `q` searches task titles (case-insensitive). */
export const ThreadFilters = z.object({
  status: ThreadStatus.optional(),
  flowId: z.string().min(1).max(64).optional(),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  limit: z.number().int().min(1).max(DASHBOARD_MAX_PAGE).default(DASHBOARD_PAGE),
  /** Id of the last thread of the previous page (keyset pagination, newest first). */
  cursor: z.string().min(1).max(64).optional(),
});
export type ThreadFilters = z.input<typeof ThreadFilters>;

/** The model a run used, as its `run_started` event recorded it. */
export interface RunModel {
  provider: string;
  modelId: string;
  offline: boolean;
}

/** A page of rows, newest first. */
export interface DashboardPage {
  rows: DashboardRow[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** True when the given cursor is not a visible thread matching the filters (the first page was returned). */
  cursorIgnored: boolean;
}

const PLAN_EVENTS = ["plan_generated", "plan_updated", "plan_completed", "plan_failed"];
const RunStartedEvent = z.object({ data: z.object({ model: z.object({ provider: z.string(), modelId: z.string(), offline: z.boolean() }).nullable() }) });
/** The events that say which models a run used: its start (the default model) and its end (tokens per model, docs/models.md "Costs"). */
const MODEL_EVENTS = ["run_started", "run_completed", "run_failed", "run_suspended"];
const ModelUsageRow = z.object({ provider: z.string(), name: z.string(), modelId: z.string(), inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) });
const RunEndedEvent = z.object({
  data: z.object({
    usage: z
      .object({ byModel: z.array(ModelUsageRow).optional() })
      .nullable()
      .optional(),
  }),
});
const PlanEvent = z.object({ data: z.object({ steps: z.array(z.object({ status: z.string() })) }) });
const AgentModels = z.object({ nodes: z.array(z.object({ type: z.string(), data: z.object({ model: z.string().optional() }).loose().optional() }).loose()) }).loose();

/**
 * Prisma filter of the threads the user may see that match the filters. The search is a
 * substring of the title, case-insensitive (lib/db/contains-text.ts). Prisma passes `%` and `_` to LIKE unescaped (they would match any
 * text / any character), so a search holding them narrows by its other pieces and then
 * keeps the exact matches by id: one more query, only for such searches.
 */
async function threadWhere(db: Db, userId: string, f: { status?: string; flowId?: string; q?: string }): Promise<Prisma.ThreadWhereInput> {
  const scope: Prisma.ThreadWhereInput = {
    flow: { workspace: memberOf(userId) },
    ...(f.status ? { status: f.status } : {}),
    ...(f.flowId ? { flowId: f.flowId } : {}),
  };
  if (!f.q) return scope;
  if (!/[%_]/.test(f.q)) return { ...scope, title: containsText(db, f.q) };
  const pieces = f.q.split(/[%_]+/).filter(Boolean);
  const candidates = await db.thread.findMany({ where: { AND: [scope, ...pieces.map((p) => ({ title: containsText(db, p) }))] }, select: { id: true, title: true } });
  const needle = f.q.toLowerCase();
  return { ...scope, id: { in: candidates.filter((c) => c.title.toLowerCase().includes(needle)).map((c) => c.id) } };
}

/**
 * Lists the threads of the user's workspaces, newest first.
 * @param filters see {@link ThreadFilters}: status, flowId, q (title search), limit
 *   (1-200, default 50), cursor (the previous page's `nextCursor`).
 * @param opts.now clock for the duration of runs still running (ms since epoch).
 * @throws ZodError when the filters are malformed.
 */
export async function listThreads(db: Db, userId: string, filters: ThreadFilters = {}, opts: { now?: () => number } = {}): Promise<DashboardPage> {
  const f = ThreadFilters.parse(filters);
  const base = await threadWhere(db, userId, f);
  let where = base;
  let cursorIgnored = false;
  if (f.cursor) {
    const after = await db.thread.findFirst({ where: { AND: [base, { id: f.cursor }] }, select: { id: true, createdAt: true } });
    if (after) where = { AND: [base, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] };
    else cursorIgnored = true;
  }
  const found = await db.thread.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: f.limit + 1,
    select: {
      id: true,
      title: true,
      status: true,
      leaseRunId: true,
      createdAt: true,
      flow: { select: { id: true, name: true } },
      flowVersion: { select: { version: true } },
      user: { select: { email: true } },
    },
  });
  const threads = found.slice(0, f.limit);
  const ids = threads.map((t) => t.id);
  if (ids.length === 0) return { rows: [], nextCursor: null, cursorIgnored };

  const [runs, started, latestPlans] = await Promise.all([
    db.run.findMany({
      where: { threadId: { in: ids } },
      orderBy: { startedAt: "asc" },
      select: { id: true, threadId: true, flowVersionId: true, startedAt: true, endedAt: true, inputTokens: true, outputTokens: true },
    }),
    prismaRunStore(db).events({ threadIds: ids, types: MODEL_EVENTS }),
    prismaRunStore(db).latestOfEach(ids, PLAN_EVENTS),
  ]);
  const costs = await priceRuns(db, runs, modelsOf(started));
  const stepsOf = new Map(latestPlans.map((e) => [e.threadId, planSteps(e.data)]));
  const now = (opts.now ?? Date.now)();

  const rows = threads.map((t): DashboardRow => {
    const mine = runs.filter((r) => r.threadId === t.id);
    let cost: number | null = 0;
    let priceNote: string | null = null;
    const models: string[] = [];
    for (const r of mine) {
      const c = costs.get(r.id);
      for (const m of c?.models ?? []) if (!models.includes(m)) models.push(m);
      if (!c || c.usd === null) {
        cost = null;
        priceNote ??= c?.note ?? "unknown price";
      } else if (cost !== null) cost += c.usd;
    }
    return {
      id: t.id,
      title: t.title,
      status: threadStatusShown(t),
      flow: t.flow,
      version: t.flowVersion.version,
      startedAt: t.createdAt,
      durationMs: mine.length ? mine.reduce((ms, r) => ms + Math.max(0, (r.endedAt?.getTime() ?? now) - r.startedAt.getTime()), 0) : null,
      running: mine.some((r) => !r.endedAt),
      steps: stepsOf.get(t.id) ?? null,
      tokens: { input: sum(mine, "inputTokens"), output: sum(mine, "outputTokens") },
      costUsd: cost,
      priceNote,
      models,
      startedBy: t.user.email,
    };
  });
  const last = threads.at(-1);
  return { rows, nextCursor: found.length > f.limit && last ? last.id : null, cursorIgnored };
}

/** Threads per status for the filter chips, under the flow and search filters (not the status one). */
export type StatusCounts = Record<ThreadStatus, number> & { all: number };

/**
 * Counts the user's visible threads per status (the dashboard's filter chips).
 * @param filters optional flowId and q, as in {@link listThreads}; status is ignored.
 * @returns a count for every status (0 when none) and `all`.
 */
export async function dashboardCounts(db: Db, userId: string, filters: { flowId?: string; q?: string } = {}): Promise<StatusCounts> {
  const groups = await db.thread.groupBy({ by: ["status"], where: await threadWhere(db, userId, { flowId: filters.flowId, q: filters.q?.trim() }), _count: { _all: true } });
  const counts = Object.fromEntries([...ThreadStatus.options.map((s) => [s, 0]), ["all", 0]]) as StatusCounts;
  for (const g of groups) {
    const s = ThreadStatus.safeParse(g.status);
    if (s.success) counts[s.data] += g._count._all;
    counts.all += g._count._all;
  }
  return counts;
}

/**
 * Totals of the filtered set (the dashboard's "Totals" line): threads, runs, tokens, cost. Reads
 * only runs that used tokens for the cost, in a fixed number of queries.
 * @param filters status, flowId, q as in {@link listThreads}; limit and cursor are ignored.
 * @throws ZodError when the filters are malformed.
 */
export async function dashboardTotals(db: Db, userId: string, filters: ThreadFilters = {}): Promise<DashboardTotals> {
  const where = await threadWhere(db, userId, ThreadFilters.parse(filters));
  const spent: Prisma.RunWhereInput = { thread: where, OR: [{ inputTokens: { gt: 0 } }, { outputTokens: { gt: 0 } }] };
  const [threads, agg, runs] = await Promise.all([
    db.thread.count({ where }),
    db.run.aggregate({ where: { thread: where }, _count: { _all: true }, _sum: { inputTokens: true, outputTokens: true } }),
    db.run.findMany({ where: spent, select: { id: true, flowVersionId: true, inputTokens: true, outputTokens: true } }),
  ]);
  const started = runs.length ? await prismaRunStore(db).events({ runIds: runs.map((r) => r.id), types: MODEL_EVENTS }) : [];
  const costs = await priceRuns(db, runs, modelsOf(started));
  let pricedUsd = 0;
  let unpricedRuns = 0;
  for (const c of costs.values()) {
    if (c.usd === null) unpricedRuns += 1;
    else pricedUsd += c.usd;
  }
  return {
    threads,
    runs: agg._count._all,
    tokens: { input: agg._sum.inputTokens ?? 0, output: agg._sum.outputTokens ?? 0 },
    costUsd: unpricedRuns ? null : pricedUsd,
    pricedUsd,
    unpricedRuns,
  };
}

type PricedRun = { id: string; flowVersionId: string; inputTokens: number; outputTokens: number };
type RunCost = { usd: number | null; note: string | null; models: string[] };
type RunModels = { model: RunModel | null; byModel: z.infer<typeof ModelUsageRow>[] | null };

/**
 * The model of each run, from its `run_started` event (lib/runs/run-thread.ts), and its
 * tokens per model from its end events when the run recorded them (docs/models.md "Costs").
 */
function modelsOf(events: { runId: string | null; type: string; data: string }[]): Map<string, RunModels> {
  const out = new Map<string, RunModels>();
  const of = (runId: string) => out.get(runId) ?? (out.set(runId, { model: null, byModel: null }).get(runId) as RunModels);
  for (const e of events) {
    if (!e.runId) continue;
    if (e.type === "run_started") {
      const parsed = RunStartedEvent.safeParse(safeJson(e.data));
      of(e.runId).model = parsed.success ? parsed.data.data.model : null;
      continue;
    }
    const ended = RunEndedEvent.safeParse(safeJson(e.data));
    const rows = ended.success ? ended.data.data.usage?.byModel : undefined;
    if (rows) {
      const entry = of(e.runId);
      entry.byModel = [...(entry.byModel ?? []), ...rows];
    }
  }
  return out;
}

/** "name:modelId" as a flow names a model (docs/models.md), the provider kind's own name when not renamed. */
const refOf = (m: { provider: string; name: string; modelId: string }) => (m.name === m.provider ? m.modelId : `${m.name}:${m.modelId}`);

/**
 * Prices each run at its models' list prices. A run that recorded its tokens per model
 * (docs/models.md "Costs") is priced model by model, each call at its own model's price.
 * Older runs are priced at one model: when agents of its flow version name other models
 * than the run's, its tokens cannot be split per model and its price is unknown. Reads the
 * flow versions' documents only for such candidates (one query).
 */
async function priceRuns(db: Db, runs: PricedRun[], models: Map<string, RunModels>): Promise<Map<string, RunCost>> {
  const out = new Map<string, RunCost>();
  const single: PricedRun[] = [];
  for (const r of runs) {
    const byModel = models.get(r.id)?.byModel;
    if (!byModel || byModel.length === 0 || r.inputTokens + r.outputTokens === 0) {
      single.push(r);
      continue;
    }
    let usd: number | null = 0;
    let note: string | null = null;
    for (const m of byModel) {
      const c = m.provider === "offline" ? 0 : estimateCost({ modelId: m.modelId, provider: m.provider, inputTokens: m.inputTokens, outputTokens: m.outputTokens });
      if (c === null) {
        usd = null;
        note ??= m.provider === "openai-compatible" ? `${refOf(m)} on an OpenAI-compatible server: its price is not known` : `no price on file for ${m.modelId} (${m.provider})`;
      } else if (usd !== null) usd += c;
    }
    out.set(r.id, { usd, note, models: [...new Set(byModel.map(refOf))] });
  }
  const needsDoc = new Set(single.filter((r) => r.inputTokens + r.outputTokens > 0 && models.get(r.id)?.model && !models.get(r.id)?.model?.offline).map((r) => r.flowVersionId));
  const versions = needsDoc.size ? await db.flowVersion.findMany({ where: { id: { in: [...needsDoc] } }, select: { id: true, document: true } }) : [];
  const agentModels = new Map(versions.map((v) => [v.id, agentModelsOf(v.document)]));
  for (const r of single) {
    const model = models.get(r.id)?.model ?? null;
    const id = model?.modelId ?? null;
    const ids = id ? [id] : [];
    if (r.inputTokens + r.outputTokens === 0) out.set(r.id, { usd: 0, note: null, models: ids });
    else if (!model) out.set(r.id, { usd: null, note: "the run did not record its model", models: [] });
    else if (model.offline) out.set(r.id, { usd: 0, note: null, models: ids });
    else {
      const others = (agentModels.get(r.flowVersionId) ?? []).filter((m) => m !== model.modelId);
      const usd = others.length ? null : estimateCost({ modelId: model.modelId, provider: model.provider, inputTokens: r.inputTokens, outputTokens: r.outputTokens });
      const note = others.length
        ? `agents also use ${others.join(", ")}; tokens are not recorded per model`
        : usd === null
          ? model.provider === "openai-compatible"
            ? `${model.modelId} on an OpenAI-compatible server: its price is not known`
            : `no price on file for ${model.modelId} (${model.provider})`
          : null;
      out.set(r.id, { usd, note, models: ids });
    }
  }
  return out;
}

/** Model ids that agents of a flow document name (empty = the flow default). */
function agentModelsOf(document: string): string[] {
  const doc = AgentModels.safeParse(safeJson(document));
  if (!doc.success) return [];
  const ids = doc.data.nodes.flatMap((n) => (n.type === "agent" && n.data?.model?.trim() ? [n.data.model.trim()] : []));
  return [...new Set(ids)];
}

/** Completed / all steps of a stored plan event; null when it does not parse. */
function planSteps(data: string): { done: number; total: number } | null {
  const plan = PlanEvent.safeParse(safeJson(data));
  if (!plan.success) return null;
  const steps = plan.data.data.steps;
  return { done: steps.filter((s) => s.status === "completed").length, total: steps.length };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function sum<K extends string>(rows: Record<K, number>[], key: K): number {
  return rows.reduce((n, r) => n + r[key], 0);
}
