import "server-only";
import type { Db } from "../db/client";
import { threadWithOwnerRole } from "../auth/membership";
import { HEARTBEAT_MS, LEASE_TTL_MS } from "../db/lease";
import { type CrashHook, type CrashPoint, WorkerKilled } from "./crash-points";
import { CANCEL_REQUESTED, RunCancelled } from "./run-cancel";
import { type StructuredError, structuredError } from "../errors";
import { type BusEvent, checkedEvent, publish, type TraceIds } from "../events/bus";
import { busEventOf, busEventsOf, type NamerState, storedEventOf } from "../events/run-events";
import { appendLiveText, clearLiveText, endLiveText, storedLiveText } from "../events/live-text";
import { notifyThreadEvent } from "../events/thread-events";
import { logger, withLogContext } from "../log";
import type { RunStatus } from "../run-status";
import type { RunStore } from "./store";
import { prismaRunStore } from "./store-prisma";
import { startRunTrace } from "../telemetry";
import { type RunContext, type RunDepsOverrides, runContext } from "./run-context";
import { graphInputOf, JobInput, pendingQuestion } from "./run-input";
import { waitingOutcomes } from "./run-outcome";

import { redactSecrets, withoutLiveTokens } from "../engine/safe-state";
import type { GraphStateValue, TokenUsage } from "../engine/state";
import { lastToldLifecycle } from "./run-end-recovery";
import { missingTimelineParts } from "../engine/timeline-repair";
import { isLiveChunk, type RunChunk } from "../events/ui-parts";

const log = logger.child({ module: "run" });

/** Options of {@link executeJob}. */
export interface ExecuteJobOptions {
  db: Db;
  jobId: string;
  /** This worker's id (host, pid, random): the lease's holder while it executes the run. */
  workerId: string;
  deps?: RunDepsOverrides;
  /** Lease length without a heartbeat, ms (tests shorten it). */
  leaseTtlMs?: number;
  /** Called with each stored chunk's thread seq right after it is stored (live followers). */
  onStored?: (threadId: string, seq: number) => void;
  /**
   * Test seam (lib/runs/crash-points.ts): called at each crash point; throwing
   * WorkerKilled there stops the run as a killed worker would. Absent in production.
   */
  crashPoint?: CrashHook;
}

/** How a job's execution ended, for the worker. */
export type JobOutcome =
  /** The run ended (any status) and the lease was released. */
  | { kind: "ended"; status: RunStatus }
  /** Someone else holds the run (another worker claimed it, or it is already done). */
  | { kind: "not_claimed" }
  /** The lease lapsed under us and another worker took the run: we stopped without a word. */
  | { kind: "lost_lease" };

/**
 * Executes one run job (docs/architecture.md#runs-jobs-and-leases): claims the job and its
 * thread's lease, renews the lease every HEARTBEAT_MS while the graph runs, stores every
 * chunk's run events in the run store (lib/runs/store.ts), in order, and only then publishes
 * them on the bus (no storage depends on a bus subscription), and at the end records the run's status, the thread's, the job's and the lease's release in one
 * transaction. A job claimed again after its worker died (attempts > 1) continues from the
 * thread's last checkpoint when the thread moved past the checkpoint the job started from,
 * and replays its input otherwise, so a step that completed is never run again.
 * Yields each chunk after it is stored (the inline path of tests and the expiry sweeper);
 * a worker drains it.
 */
export async function* executeJob(opts: ExecuteJobOptions): AsyncGenerator<RunChunk, JobOutcome> {
  const { db, jobId, workerId } = opts;
  const now = opts.deps?.now ?? Date.now;
  const ttl = opts.leaseTtlMs ?? LEASE_TTL_MS;
  const store = prismaRunStore(db);
  const job = await store.job({ id: jobId });
  if (!job || job.status === "done") return { kind: "not_claimed" };
  if (!(await store.claim(job, workerId, now(), ttl))) return { kind: "not_claimed" };
  const input = JobInput.parse(JSON.parse(job.input));
  const thread = await threadWithOwnerRole(db, job.threadId);
  const ctx = await runContext(db, thread, opts.deps, { leased: true });
  const snapshot = await ctx.graph.getState(ctx.config);
  // A thread without checkpoints has no checkpoint_id (undefined) and its job stored null:
  // the same place, so a first run killed before its first checkpoint replays its input.
  const recovered = job.attempts > 0 && ((snapshot.config.configurable?.checkpoint_id as string | undefined) ?? null) !== job.startCheckpointId;
  const graphInput = recovered ? null : graphInputOf(input);

  // The heartbeat: renew, and stop at once if the lease was lost (another worker has the run).
  const abort = new AbortController();
  // It also ends the run when someone asked to cancel it (lib/runs/cancel-run.ts).
  const heartbeat = setInterval(
    () => {
      store
        .heartbeat(job.threadId, job.runId, workerId, now(), ttl)
        .then(async (held) => {
          if (!held) return abort.abort(new Error("lease lost"));
          const current = await store.job({ id: jobId });
          if (current?.status === CANCEL_REQUESTED) abort.abort(new RunCancelled());
        })
        .catch((err: unknown) => log.warn({ err, threadId: job.threadId }, "lease heartbeat failed"));
    },
    Math.min(HEARTBEAT_MS, Math.floor(ttl / 3)),
  );
  try {
    const flow = { id: thread.flowId, version: thread.flowVersion.version };
    const result = yield* runGraph({ db, store, ctx, job, flow, input, snapshot, graphInput, recovered, signal: abort.signal, now, onStored: opts.onStored, crash: opts.crashPoint ?? (() => {}) });
    return result;
  } finally {
    clearInterval(heartbeat);
    // A caller that abandons the stream stops the graph too (as a killed worker's would).
    abort.abort(new Error("the run's executor stopped"));
  }
}

interface RunGraphOptions {
  db: Db;
  store: RunStore;
  ctx: RunContext;
  job: { id: string; runId: string; threadId: string; attempts: number };
  /** The thread's flow and its pinned version's number (for the run's trace). */
  flow: { id: string; version: number };
  input: JobInput;
  snapshot: Awaited<ReturnType<RunContext["graph"]["getState"]>>;
  graphInput: unknown;
  recovered: boolean;
  signal: AbortSignal;
  now: () => number;
  onStored: ExecuteJobOptions["onStored"];
  crash: (point: CrashPoint) => void;
}

async function* runGraph(o: RunGraphOptions): AsyncGenerator<RunChunk, JobOutcome> {
  try {
    return yield* runGraphBody(o);
  } finally {
    // Nothing of the run's live text stays in memory, however it ended.
    clearLiveText(o.job.threadId, o.job.runId);
  }
}

async function* runGraphBody(o: RunGraphOptions): AsyncGenerator<RunChunk, JobOutcome> {
  const { store, ctx, job, input, snapshot, now } = o;
  const { threadId, runId } = job;
  const values = snapshot.values as Partial<GraphStateValue>;
  const runTrace = startRunTrace(
    { "thread.id": threadId, "run.id": runId, "run.kind": input.kind, "run.attempt": job.attempts + 1, "flow.id": o.flow.id, "flow.version": o.flow.version },
    input.traceId,
  );
  const ids: TraceIds = { traceId: runTrace.traceId, threadId, runId };
  const outbox: RunChunk[] = [];
  /** Wakes followers anywhere (other tabs, devices, instances) and this process's, once `seq` is stored. */
  const stored = (seq: number) => {
    void notifyThreadEvent(threadId, seq, runId).catch((err: unknown) => log.warn({ err, threadId }, "event notification failed"));
    o.onStored?.(threadId, seq);
  };
  // A recovered run re-runs the node its worker died in, which emits again what it had
  // emitted: an event already stored for this run, identical, is not stored nor streamed twice.
  const seen = new Set<string>();
  if (job.attempts > 0) {
    for (const e of await store.events({ runId })) seen.add(`${e.type}\n${e.data}`);
  }
  /**
   * Store, then publish (docs/architecture.md#the-run-store): each run event is appended to
   * the run store, in order, and its stream part (if any) waits in `outbox` for the stream to
   * yield it; only then is it published on the bus, whose subscribers (memory hooks, webhooks,
   * logs) find it stored. Nothing is stored by a bus subscription.
   */
  const record = async (event: BusEvent) => {
    const checked = checkedEvent(event);
    const run = storedEventOf(checked);
    if (run) {
      const data = JSON.stringify(withoutLiveTokens(run.data));
      const key = `${run.name}\n${data}`;
      if (!seen.has(key)) {
        seen.add(key);
        stored(await store.append({ threadId, runId, type: run.name, data }));
        // The answer's finished text is stored: followers read it from there, not from memory.
        if (run.chunk?.type === "text") storedLiveText(threadId, run.chunk.id);
        if (run.chunk) outbox.push(run.chunk);
      }
    }
    await publish(checked);
  };
  const namer: NamerState = { plans: new Set(values.plan ? [values.plan.id] : []), agent: null };
  let parts = 0;
  const publishChunk = async (chunk: RunChunk) => {
    parts += 1;
    o.crash(`event:${parts}`);
    for (const event of busEventsOf(chunk, namer, ids, now())) await record(event);
  };
  // A recovered run first tells what its dead worker's graph did but never stored
  // (docs/durability.md "Events after a crash"): the state moved, the timeline did not.
  const repairTimeline = async (state: Partial<GraphStateValue>) => {
    if (job.attempts === 0) return;
    const rows = await store.events({ threadId });
    for (const chunk of missingTimelineParts(rows, state, ctx.deps.flow, runId, new Date(now()).toISOString())) await publishChunk(chunk);
  };
  const inRun = <T>(fn: () => T): T => withLogContext(ids, () => runTrace.within(fn));
  const model = ctx.deps.resolveModel(ctx.doc.settings.model);
  const modelView = { provider: model.provider, modelId: model.modelId, offline: model.offline };
  let usage: { inputTokens: number; outputTokens: number; byModel?: ModelUsage[] } | null = null;
  const runChunk = (status: RunStatus, error: StructuredError | null): Extract<RunChunk, { type: "data-run" }> => ({
    type: "data-run",
    id: runId,
    data: {
      runId,
      traceId: ids.traceId,
      status,
      model: modelView,
      error: error && { code: error.code, message: error.message, severity: error.severity, retryable: error.retryable, suggested_action: error.suggested_action },
      usage,
    },
  });
  let final = runChunk("failed", structuredError("run_error", "the run stopped early"));
  try {
    if (job.attempts === 0) {
      await record(busEventOf("user_message", { text: input.label, kind: input.kind }, ids, now()));
      if (input.intent) await record(busEventOf("intent_classified", { type: "event", name: "intent_classified", payload: { intent: input.intent } }, ids, now()));
    }
    await inRun(() => publishChunk(runChunk("running", null)));
    await repairTimeline(values);
    yield* outbox.splice(0);
    const chunks = await inRun(() => ctx.graph.stream(o.graphInput as never, { ...ctx.config, streamMode: ["custom", "updates"], recursionLimit: 1000, signal: o.signal, durability: "sync" }));
    // After a recovery, transitions go on from the last one the timeline told.
    let lifecycle = (job.attempts > 0 ? await lastToldLifecycle(store, threadId) : null) ?? values.lifecycle ?? "INIT";
    let transitions = 0;
    const it = (chunks as AsyncIterable<[string, unknown]>)[Symbol.asyncIterator]();
    while (true) {
      const r = await inRun(() => it.next());
      if (r.done) break;
      const [mode, payload] = r.value;
      if (mode === "custom" && isLiveChunk(payload)) {
        // Text as the model writes it (docs/runs.md "Streaming"): to this process's followers,
        // never stored; redacted as a stored answer is (a piece never splits a word).
        if (payload.type === "text-delta") appendLiveText(threadId, runId, payload.id, payload.node, redactSecrets(payload.delta));
        else endLiveText(threadId, payload.id, redactSecrets(payload.text));
      } else if (mode === "custom") {
        await inRun(() => publishChunk(payload as RunChunk));
      } else {
        // Node updates: record each lifecycle transition (docs/runs.md#lifecycle).
        for (const [node, update] of Object.entries(payload as Record<string, unknown>)) {
          const to = (update as { lifecycle?: string } | null)?.lifecycle;
          if (!to || to === lifecycle) continue;
          transitions += 1;
          const from = lifecycle;
          lifecycle = to as typeof lifecycle;
          await publishChunk({ type: "data-lifecycle", id: `${runId}-${job.attempts}-${transitions}`, data: { from, to, node, at: new Date(now()).toISOString() } });
        }
      }
      yield* outbox.splice(0);
    }
    const after = await ctx.graph.getState(ctx.config);
    const v = after.values as GraphStateValue;
    await repairTimeline(v);
    const question = pendingQuestion(after);
    if (question) await publishChunk({ type: "text", id: `question-${question.id}`, text: question.question });
    yield* outbox.splice(0);
    usage = {
      inputTokens: v.token_usage.input_tokens - (values.token_usage?.input_tokens ?? 0),
      outputTokens: v.token_usage.output_tokens - (values.token_usage?.output_tokens ?? 0),
      byModel: usageByModel(v.model_usage, values.model_usage),
    };
    const waiting = after.tasks.some((t) => t.interrupts.length > 0);
    // A call whose outcome is unknown waits on a person's answer (retry or skip).
    const status = runStatusOf(v, question !== null || waitingOutcomes(after).length > 0, waiting);
    final = runChunk(status, v.error && !waiting && status !== "cancelled" ? v.error : null);
  } catch (err) {
    // A simulated kill (tests): nothing more is written, the lease stays for recovery.
    if (err instanceof WorkerKilled) throw err;
    if (o.signal.aborted && o.signal.reason instanceof RunCancelled) {
      // Cancelled (docs/durability.md#cancel): the run ends here, through the normal end below.
      log.info({ threadId, runId }, "run cancelled");
      final = runChunk("cancelled", null);
    } else if (o.signal.aborted) {
      // The lease lapsed and another worker owns the run now: leave every row to it.
      runTrace.end("lost_lease", null);
      log.warn({ threadId, runId }, "lease lost: stopped executing the run");
      return { kind: "lost_lease" };
    } else {
      log.error({ err }, "run failed");
      final = runChunk("failed", structuredError("run_error", err instanceof Error ? err.message : String(err)));
    }
  }
  const status = final.data.status;
  let killed = false;
  try {
    o.crash("before_end");
    // The run's status, the thread's, the job's and the run's final event in ONE transaction
    // (docs/durability.md "Events after a crash"): no state says the run ended without the
    // event that says so. The lease is kept until the after-run subscribers have seen it,
    // so the next run's events come after it.
    const [first] = busEventsOf(final, namer, ids, now());
    const event = first ? checkedEvent(first) : null;
    const end = event ? storedEventOf(event) : null;
    if (!event || !end) throw new Error("the final run part has no run event");
    const data = JSON.stringify(withoutLiveTokens(end.data));
    const endedAt = now();
    stored(
      await store.endRun(
        { threadId, runId, jobId: job.id, status, endedAt, error: final.data.error?.message ?? null, inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 },
        { type: end.name, data },
      ),
    );
    seen.add(`${end.name}\n${data}`);
    outbox.push(final);
    o.crash("after_end_transaction");
    // Published once the rows say how it ended, so subscribers of task.completed (the
    // memory hooks: summarize, promote; webhooks) see a finished thread.
    await publish(event);
    yield* outbox.splice(0);
    o.crash("after_final_published");
  } catch (err) {
    killed = err instanceof WorkerKilled;
    throw err;
  } finally {
    if (!killed) {
      await store.release(threadId, runId);
      runTrace.end(status, final.data.error?.message ?? null);
    }
  }
  return { kind: "ended", status };
}

/**
 * How a run that stopped streaming ended (docs/runs.md "Status vocabulary"): waiting on a
 * question or an approval; cancelled; failed (the lifecycle ended FAILED); incomplete (the
 * plan ran to its end but some step was not done); else completed.
 */
function runStatusOf(v: GraphStateValue, asking: boolean, waiting: boolean): RunStatus {
  if (asking) return "awaiting_input";
  if (waiting) return "awaiting_approval";
  if (v.plan?.status === "cancelled") return "cancelled";
  if (v.lifecycle === "FAILED") return "failed";
  return v.intent !== "conversation" && v.plan?.status === "incomplete" ? "incomplete" : "completed";
}

/** One model's share of a run's tokens (docs/models.md "Costs"). */
export interface ModelUsage {
  /** The provider's kind (prices follow it) and its name in `name:model` references. */
  provider: string;
  name: string;
  modelId: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The tokens this run spent per model: the thread's `model_usage` after the run minus before
 * (keys `kind/name:modelId`, lib/engine/state.ts modelKey); models with no tokens are left out.
 */
export function usageByModel(after: Record<string, TokenUsage> | undefined, before: Record<string, TokenUsage> | undefined): ModelUsage[] {
  const out: ModelUsage[] = [];
  for (const [key, u] of Object.entries(after ?? {})) {
    const prev = before?.[key];
    const inputTokens = u.input_tokens - (prev?.input_tokens ?? 0);
    const outputTokens = u.output_tokens - (prev?.output_tokens ?? 0);
    if (inputTokens <= 0 && outputTokens <= 0) continue;
    const slash = key.indexOf("/");
    const colon = key.indexOf(":", slash + 1);
    out.push({ provider: key.slice(0, slash), name: key.slice(slash + 1, colon), modelId: key.slice(colon + 1), inputTokens: Math.max(0, inputTokens), outputTokens: Math.max(0, outputTokens) });
  }
  return out;
}
