import type { EventQuery, JobRecord, NewRun, RunStore, StoredEvent } from "./store";

/** A run as the in-memory store keeps it. */
export interface MemoryRun extends NewRun {
  id: string;
  status: string;
  /** ms since the epoch, or null while the run goes on. */
  endedAt: number | null;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
}

/** A thread's lease and status as the in-memory store keeps them. */
export interface MemoryThread {
  status: string;
  leaseRunId: string | null;
  leaseHolder: string | null;
  /** ms since the epoch. */
  leaseExpiresAt: number | null;
}

/** The rows of the in-memory store, for tests to read. */
export interface MemoryRunRows {
  events: StoredEvent[];
  runs: Map<string, MemoryRun>;
  jobs: Map<string, JobRecord>;
  threads: Map<string, MemoryThread>;
}

const WAITING = ["awaiting_approval", "awaiting_input"];

/**
 * The in-memory twin of the run store (see store.ts), for unit tests: the same transitions
 * as the database store, checked by the same conformance suite. One process only: its
 * "conditional updates" are plain checks, atomic because JavaScript runs them without a wait.
 */
export function memoryRunStore(opts: { /** The clock of the jobs' change times, ms (default Date.now). */ now?: () => number } = {}): RunStore & { rows: MemoryRunRows } {
  const rows: MemoryRunRows = { events: [], runs: new Map(), jobs: new Map(), threads: new Map() };
  const clock = opts.now ?? Date.now;
  /** When each job last changed, ms (the database's RunJob.updatedAt). */
  const jobChanged = new Map<string, number>();
  const changed = (jobId: string) => jobChanged.set(jobId, clock());
  let ids = 0;
  const newId = (prefix: string) => `${prefix}_${++ids}`;
  const thread = (id: string): MemoryThread => {
    let t = rows.threads.get(id);
    if (!t) {
      t = { status: "idle", leaseRunId: null, leaseHolder: null, leaseExpiresAt: null };
      rows.threads.set(id, t);
    }
    return t;
  };
  const lastSeq = (threadId: string) => rows.events.reduce((max, e) => (e.threadId === threadId && e.seq > max ? e.seq : max), 0);
  const matches = (e: StoredEvent, q: EventQuery) =>
    (q.threadId === undefined || e.threadId === q.threadId) &&
    (q.runId === undefined || e.runId === q.runId) &&
    (q.threadIds === undefined || q.threadIds.includes(e.threadId)) &&
    (q.runIds === undefined || (e.runId !== null && q.runIds.includes(e.runId))) &&
    (q.afterSeq === undefined || e.seq > q.afterSeq) &&
    (q.types === undefined || q.types.includes(e.type)) &&
    (q.dataContains === undefined || e.data.includes(q.dataContains));
  const append = (e: Omit<StoredEvent, "seq">): number => {
    const seq = lastSeq(e.threadId) + 1;
    rows.events.push({ ...e, seq });
    return seq;
  };
  return {
    rows,
    async append(e) {
      return append(e);
    },
    async lastSeq(threadId) {
      return lastSeq(threadId);
    },
    async firstSeqOf(runId) {
      const seqs = rows.events.filter((e) => e.runId === runId).map((e) => e.seq);
      return seqs.length ? Math.min(...seqs) : null;
    },
    async events(q) {
      const out = rows.events.filter((e) => matches(e, q)).sort((a, b) => a.seq - b.seq);
      if (q.newestFirst) out.reverse();
      return (q.take !== undefined ? out.slice(0, q.take) : out).map((e) => ({ ...e }));
    },
    async countEvents(threadId) {
      return rows.events.filter((e) => e.threadId === threadId).length;
    },
    async latestOfEach(threadIds, types) {
      const latest = new Map<string, StoredEvent>();
      for (const e of rows.events) {
        if (!threadIds.includes(e.threadId) || !types.includes(e.type)) continue;
        const seen = latest.get(e.threadId);
        if (!seen || e.seq > seen.seq) latest.set(e.threadId, e);
      }
      return [...latest.values()].map((e) => ({ ...e }));
    },
    async createRun(r) {
      const id = newId("run");
      rows.runs.set(id, { ...r, id, status: "queued", endedAt: null, error: null, inputTokens: 0, outputTokens: 0 });
      return id;
    },
    async createJob(j) {
      const id = newId("job");
      rows.jobs.set(id, { ...j, id, status: "queued", attempts: 0, holder: null });
      changed(id);
      return id;
    },
    async job(by) {
      const job = "id" in by ? rows.jobs.get(by.id) : [...rows.jobs.values()].find((j) => j.runId === by.runId);
      return job ? { ...job } : null;
    },
    async activeRun(threadId) {
      const active = [...rows.runs.values()].filter((r) => r.threadId === threadId && (r.status === "queued" || r.status === "running"));
      return active.at(-1)?.id ?? null;
    },
    async takeLease(threadId, runId) {
      const t = thread(threadId);
      if (t.leaseRunId !== null) return false;
      Object.assign(t, { leaseRunId: runId, leaseHolder: null, leaseExpiresAt: null });
      return true;
    },
    async claim(job, holder, now, ttlMs) {
      const t = thread(job.threadId);
      const row = rows.jobs.get(job.id);
      if (!row || row.status === "done") return false;
      if (t.leaseRunId !== job.runId || (t.leaseHolder !== null && (t.leaseExpiresAt ?? 0) >= now)) return false;
      Object.assign(t, { leaseHolder: holder, leaseExpiresAt: now + ttlMs });
      Object.assign(row, { status: "claimed", holder, attempts: row.attempts + 1 });
      changed(job.id);
      const run = rows.runs.get(job.runId);
      if (run) run.status = "running";
      return true;
    },
    async heartbeat(threadId, runId, holder, now, ttlMs) {
      const t = thread(threadId);
      if (t.leaseRunId !== runId || t.leaseHolder !== holder) return false;
      t.leaseExpiresAt = now + ttlMs;
      return true;
    },
    async release(threadId, runId) {
      const t = thread(threadId);
      if (t.leaseRunId !== runId) return false;
      Object.assign(t, { leaseRunId: null, leaseHolder: null, leaseExpiresAt: null });
      return true;
    },
    async endRun(end, final) {
      const run = rows.runs.get(end.runId);
      const job = rows.jobs.get(end.jobId);
      if (!run || !job) throw new Error(`no run ${end.runId} or job ${end.jobId}`);
      Object.assign(run, { status: end.status, endedAt: end.endedAt, error: end.error, inputTokens: run.inputTokens + end.inputTokens, outputTokens: run.outputTokens + end.outputTokens });
      if (!WAITING.includes(end.status)) {
        for (const r of rows.runs.values()) if (r.threadId === end.threadId && r.id !== end.runId && WAITING.includes(r.status)) r.status = end.status;
      }
      thread(end.threadId).status = end.status;
      job.status = "done";
      changed(job.id);
      return append({ threadId: end.threadId, runId: end.runId, type: final.type, data: final.data });
    },
    async lapsedLeases(now, take = 50) {
      const lapsed = [...rows.threads.entries()].filter(([, t]) => t.leaseRunId !== null && t.leaseHolder !== null && t.leaseExpiresAt !== null && t.leaseExpiresAt < now);
      lapsed.sort(([, x], [, y]) => (x.leaseExpiresAt ?? 0) - (y.leaseExpiresAt ?? 0));
      return lapsed.slice(0, take).map(([threadId, t]) => ({ threadId, runId: t.leaseRunId ?? "", holder: t.leaseHolder ?? "" }));
    },
    async requeue(jobId, holder) {
      const job = rows.jobs.get(jobId);
      if (!job || job.status !== "claimed" || job.holder !== holder) return false;
      Object.assign(job, { status: "queued", holder: null });
      changed(jobId);
      return true;
    },
    async staleQueued(before, take) {
      return [...rows.jobs.values()]
        .filter((j) => j.status === "queued" && (jobChanged.get(j.id) ?? 0) < before)
        .slice(0, take)
        .map((j) => j.id);
    },
    async touchQueued(jobId) {
      const job = rows.jobs.get(jobId);
      if (!job || job.status !== "queued") return false;
      job.holder = null;
      changed(jobId);
      return true;
    },
    async giveUp(g) {
      const run = rows.runs.get(g.runId);
      const job = rows.jobs.get(g.jobId);
      if (!run || !job) throw new Error(`no run ${g.runId} or job ${g.jobId}`);
      Object.assign(run, { status: "interrupted", endedAt: g.endedAt, error: g.error });
      for (const r of rows.runs.values()) if (r.threadId === g.threadId && r.id !== g.runId && WAITING.includes(r.status)) r.status = "interrupted";
      job.status = "done";
      changed(g.jobId);
      const t = thread(g.threadId);
      if (t.leaseRunId === g.runId) Object.assign(t, { leaseRunId: null, leaseHolder: null, leaseExpiresAt: null });
    },
  };
}
