import "server-only";
import { Command } from "@langchain/langgraph";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import { permissionOf, requireCapability, roleIn, threadAccess } from "../db/workspaces";
import { AppError, type StructuredError, structuredError } from "../errors";
import { FlowDocument } from "../flow/schema";
import { userModelResolver } from "../models/provider-settings";
import { workspaceToolRegistry } from "../tools/workspace-registry";
import type { ResolvedModel } from "./deps";
import { approvalSecret, createEngineDeps, type EngineDepsOptions } from "./engine-deps";
import { buildGraph } from "./graph";
import { classifyIntent } from "./intent";
import { isRunActive, markRunActive, markRunEnded } from "./active-runs";
import { applyDecision, type DecisionInput, waitingCalls } from "./run-decision";
import { withoutLiveTokens } from "./safe-state";
import type { QuestionInterrupt } from "./nodes/finalizer";
import type { GraphStateValue } from "./state";
import { publish, subscribe, type TraceIds } from "../events/bus";
import { busEventOf, busEventsOf, type NamerState, storedEventOf } from "../events/run-events";
import { logger, withLogContext } from "../log";
import { startRunTrace } from "../telemetry";
import type { RunChunk } from "./ui-parts";
import type { RunStatus } from "../run-status";

const log = logger.child({ module: "run" });

export type { DecisionInput } from "./run-decision";

/** What starts a run on a thread: a user message, a decision on a pending approval, a continue. */
export type RunInput =
  | { kind: "message"; text: string; /** Directed mode: the agent the user picked (SPEC.md 1). */ agentId?: string }
  /** Continue a run that stopped between two steps (the server went away) from its last checkpoint. */
  | { kind: "continue" }
  | DecisionInput
  /** Internal (the expiry sweeper, never HTTP): tell the run that a challenge expired. */
  | { kind: "expired"; approvalId: string };

/** Options of {@link prepareRun}. */
export interface PrepareRunOptions {
  db: Db;
  threadId: string;
  /** The signed-in user; the thread must be theirs (else 404). */
  userId: string;
  input: RunInput;
  /** Overrides of the engine's services (tests: scripted model, temp workspaces, clock). */
  deps?: Omit<EngineDepsOptions, "db" | "doc">;
}

/** A run that passed every check and may stream. */
export interface PreparedRun {
  runId: string;
  /** The run's W3C trace id (32 hex chars): in its events, log lines, spans and run part. */
  traceId: string;
  /** The model the flow's default resolves to (shown in the UI). */
  model: ResolvedModel;
  /**
   * Runs the graph, yielding each chunk after it is stored as a RunEvent. Consume it to
   * the end: the run's span and bus subscription end with it.
   */
  stream(): AsyncGenerator<RunChunk>;
}

/** True while a run of the thread streams in this server process (see active-runs.ts). */
export { isRunActive } from "./active-runs";

/**
 * Checks and prepares one run of a thread's graph (SPEC.md 2, 8; issue 4). Everything
 * that can be refused is refused here, before any byte is streamed: the thread must be in
 * a workspace of the user (404); messages and continues come only from the thread's own
 * user (403); decisions need the owner or approver role (403); no other run may be
 * streaming on it (409). A decision must name a pending approval of the thread and pass
 * its checks (see lib/approvals/service.ts); its one conditional update decides races
 * (the loser gets 409) before the run resumes with `Command({ resume })`.
 *
 * Events (SPEC.md 7, issue 6): every chunk, and every further event it stands for, is
 * published on the bus (lib/events/bus.ts) with the run's trace id, thread and run; the
 * run's own subscription stores each as a RunEvent (lib/events/run-events.ts names) and
 * hands the chunk to the stream. The graph runs inside the run's log context and span, so
 * log lines and tool spans of the run carry its ids.
 * @throws AppError with the status the route returns.
 */
export async function prepareRun(opts: PrepareRunOptions): Promise<PreparedRun> {
  const { db, threadId, userId, input } = opts;
  const { thread, role } = input.kind === "expired" ? await systemAccess(db, threadId) : await threadAccess(db, userId, threadId);
  if (input.kind === "decision") requireCapability(role, "decide");
  else if (input.kind !== "expired") {
    requireCapability(role, "run");
    if (thread.userId !== userId) throw new AppError("forbidden", "thread_owner_only", "Only the user who started this thread can send it messages; decide its approvals from the cards or the inbox.");
  }
  if (isRunActive(threadId)) throw new AppError("conflict", "run_in_progress", "A run is already streaming on this thread; wait for it to finish.");
  const doc = FlowDocument.parse(JSON.parse(thread.flowVersion.document));
  const now = opts.deps?.now ?? Date.now;
  // The requester's role sets the run's permission level (SPEC.md 3 security context).
  const requesterRole = thread.userId === userId ? role : await roleIn(db, thread.userId, thread.flow.workspaceId);
  // The user's own provider (Settings) if any, else the server's environment, else offline.
  const resolveModel = opts.deps?.resolveModel ?? (await userModelResolver(db, thread.userId));
  // The built-ins and the workspace's MCP tools (issue 6).
  const toolNames = doc.nodes.flatMap((n) => (n.type === "tool" ? [n.data.tool] : []));
  const registry = opts.deps?.registry ?? (await workspaceToolRegistry(db, thread.flow.workspaceId, toolNames));
  const deps = { ...createEngineDeps({ db, doc, permission: requesterRole ? permissionOf(requesterRole) : "user", ...opts.deps, resolveModel, registry }), invokedAt: now() };
  const graph = buildGraph(deps, new PrismaCheckpointSaver(db));
  const config = { configurable: { thread_id: threadId } };
  const snapshot = await graph.getState(config);
  const values = snapshot.values as Partial<GraphStateValue>;

  let graphInput: unknown;
  let intent: "task" | "conversation" | null = null;
  let label: string;
  if (input.kind === "continue") {
    // A thread still marked running with a next node was cut off by a stopped server. That
    // includes a kill after an interrupt's checkpoint but before the run's status was saved:
    // re-running AwaitApproval (nothing runs before its interrupt) raises the same interrupt.
    // `tasks`, not `next`: `next` leaves out tasks whose writes were saved, and when the kill
    // came after a step's writes but before the next checkpoint (checkpoints are saved
    // asynchronously, which on PostgreSQL takes round trips) every task has its writes.
    const interruptedRun = thread.status === "running" && snapshot.tasks.length > 0;
    if (!interruptedRun) throw new AppError("conflict", "nothing_to_continue", "This thread has no interrupted run to continue.");
    await db.run.updateMany({ where: { threadId, status: "running" }, data: { status: "interrupted", endedAt: new Date(), error: "The server stopped during the run." } });
    // No input: LangGraph continues from the last checkpoint, exactly where the run stopped.
    graphInput = null;
    label = "Continue the interrupted run";
  } else if (input.kind === "decision" || input.kind === "expired") {
    const decided = await applyDecision({ db, secret: opts.deps?.approvalSecret ?? approvalSecret(), now }, threadId, userId, input, waitingCalls(snapshot), deps);
    graphInput = new Command({ resume: decided.resume, update: { run_started_at: now() } });
    label = decided.label;
  } else if (input.kind === "message" && pendingQuestion(snapshot)) {
    // The run asked the user how to proceed (Finalizer interrupt): the message is the answer.
    const q = pendingQuestion(snapshot);
    graphInput = new Command({ resume: { [q?.id ?? ""]: input.text }, update: { run_started_at: now() } });
    label = input.text;
  } else {
    if (input.agentId && !doc.nodes.some((n) => n.type === "agent" && n.id === input.agentId)) {
      throw new AppError("unprocessable", "unknown_agent", `input.agentId: the flow has no agent "${input.agentId}".`);
    }
    // Intent classification happens before the graph and is recorded (issue 3).
    intent = input.agentId ? "task" : classifyIntent(input.text);
    graphInput = {
      intent,
      messages: [{ role: "user", content: input.text }],
      thread_id: threadId,
      user_id: userId,
      run_started_at: now(),
      agent_mode: input.agentId ? "directed" : "autonomous",
      directed_agent_id: input.agentId ?? null,
    };
    label = input.text;
  }

  const run = await db.run.create({ data: { threadId, flowVersionId: thread.flowVersionId, kind: input.kind === "message" ? "start" : "resume", status: "running" } });
  if (input.kind === "expired") await db.approval.updateMany({ where: { id: input.approvalId }, data: { runNotifiedAt: new Date(now()) } });
  await db.thread.update({ where: { id: threadId }, data: { status: "running" } });
  const last = await db.runEvent.findFirst({ where: { threadId }, orderBy: { seq: "desc" }, select: { seq: true } });
  let seq = last?.seq ?? 0;
  const runTrace = startRunTrace({ "thread.id": threadId, "run.id": run.id, "run.kind": input.kind, "flow.id": thread.flowId, "flow.version": thread.flowVersion.version });
  const ids: TraceIds = { traceId: runTrace.traceId, threadId, runId: run.id };
  // The run's subscription: every run event of this run is stored, in publish order, and
  // its stream part (if any) waits in `outbox` for the stream to yield it.
  const outbox: RunChunk[] = [];
  const unsubscribe = subscribe(
    "*",
    async (event) => {
      const stored = storedEventOf(event);
      if (!stored) return;
      seq += 1;
      await db.runEvent.create({ data: { threadId, runId: run.id, seq, type: stored.name, data: JSON.stringify(withoutLiveTokens(stored.data)) } });
      if (stored.chunk) outbox.push(stored.chunk);
    },
    { runId: run.id },
  );
  const namer: NamerState = { plans: new Set(values.plan ? [values.plan.id] : []), agent: null };
  /** Publishes a chunk (and any further event it stands for); the subscription stores them. */
  const publishChunk = async (chunk: RunChunk) => {
    for (const event of busEventsOf(chunk, namer, ids, now())) await publish(event);
  };
  /** Publishes a chunk, then hands on what the subscription passed to the stream. */
  async function* emitted(chunk: RunChunk): AsyncGenerator<RunChunk> {
    await publishChunk(chunk);
    yield* outbox.splice(0);
  }
  try {
    await publish(busEventOf("user_message", { text: label, kind: input.kind }, ids, now()));
    if (intent) await publish(busEventOf("intent_classified", { type: "event", name: "intent_classified", payload: { intent } }, ids, now()));
  } catch (err) {
    unsubscribe();
    runTrace.end("failed", err instanceof Error ? err.message : String(err));
    throw err;
  }
  const model = deps.resolveModel(doc.settings.model);
  const modelView = { provider: model.provider, modelId: model.modelId, offline: model.offline };

  /**
   * The run itself. Each step of it (every `next()`) runs inside the run's log context and
   * span, whoever iterates: a generator's body runs in the context of its caller.
   */
  async function* stream(): AsyncGenerator<RunChunk> {
    const it = steps();
    const inRun = <T>(fn: () => T): T => withLogContext(ids, () => runTrace.within(fn));
    let last: { status: string; error: string | null } = { status: "failed", error: "the stream ended early" };
    try {
      while (true) {
        const r = await inRun(() => it.next());
        if (r.done) break;
        if (r.value.type === "data-run") last = { status: r.value.data.status, error: r.value.data.status === "failed" ? (r.value.data.error?.message ?? "failed") : null };
        yield r.value;
      }
    } finally {
      await inRun(() => it.return(undefined));
      unsubscribe();
      runTrace.end(last.status, last.error);
    }
  }

  // The run's steps, as before the bus: each chunk is published, stored by the
  // subscription, then yielded from what it handed on; the final run part comes last.
  async function* steps(): AsyncGenerator<RunChunk> {
    markRunActive(threadId);
    const runChunk = (status: RunStatus, error: StructuredError | null): RunChunk => ({
      type: "data-run",
      id: run.id,
      data: {
        runId: run.id,
        traceId: ids.traceId,
        status,
        model: modelView,
        error: error && { code: error.code, message: error.message, severity: error.severity, retryable: error.retryable, suggested_action: error.suggested_action },
        usage,
      },
    });
    let usage: { inputTokens: number; outputTokens: number } | null = null;
    let final: RunChunk;
    try {
      yield* emitted(runChunk("running", null));
      // "sync": each step's checkpoint is stored before the next step starts, so a step the
      // stream shows as done survives a crash (with "async" a PostgreSQL write may still be in
      // flight when the process dies, and the continue would redo finished steps).
      const chunks = await graph.stream(graphInput as never, { ...config, streamMode: ["custom", "updates"], recursionLimit: 1000, durability: "sync" });
      let lifecycle = values.lifecycle ?? "INIT";
      let transitions = 0;
      for await (const [mode, payload] of chunks as AsyncIterable<[string, unknown]>) {
        if (mode === "custom") {
          yield* emitted(payload as RunChunk);
          continue;
        }
        // Node updates: record each lifecycle transition (SPEC.md 3, seed 003).
        for (const [node, update] of Object.entries(payload as Record<string, unknown>)) {
          const to = (update as { lifecycle?: string } | null)?.lifecycle;
          if (!to || to === lifecycle) continue;
          transitions += 1;
          const chunk: RunChunk = { type: "data-lifecycle", id: `${run.id}-${transitions}`, data: { from: lifecycle, to, node, at: new Date(now()).toISOString() } };
          lifecycle = to as typeof lifecycle;
          yield* emitted(chunk);
        }
      }
      const after = await graph.getState(config);
      const v = after.values as GraphStateValue;
      const question = pendingQuestion(after);
      if (question) {
        yield* emitted({ type: "text", id: `question-${question.id}`, text: question.question });
      }
      usage = { inputTokens: v.token_usage.input_tokens - (values.token_usage?.input_tokens ?? 0), outputTokens: v.token_usage.output_tokens - (values.token_usage?.output_tokens ?? 0) };
      const waiting = after.tasks.some((t) => t.interrupts.length > 0);
      const status = runStatusOf(v, question !== null, waiting);
      final = runChunk(status, v.error && !waiting && status !== "cancelled" ? v.error : null);
    } catch (err) {
      log.error({ err }, "run failed");
      final = runChunk("failed", structuredError("run_error", err instanceof Error ? err.message : String(err)));
    } finally {
      markRunEnded(threadId);
    }
    const status = final.type === "data-run" ? final.data.status : "failed";
    await db.run.update({
      where: { id: run.id },
      data: {
        status,
        endedAt: new Date(),
        error: final.type === "data-run" ? (final.data.error?.message ?? null) : null,
        inputTokens: usage?.inputTokens ?? 0,
        outputTokens: usage?.outputTokens ?? 0,
      },
    });
    await db.thread.update({ where: { id: threadId }, data: { status } });
    // Published once the run and thread rows say how it ended, so subscribers of
    // task.completed (e.g. the memory hooks: summarize, promote) see a finished thread.
    await publishChunk(final);
    yield* outbox.splice(0);
  }

  return { runId: run.id, traceId: ids.traceId, model, stream };
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

/** The question the run waits on (a Finalizer interrupt), with its interrupt id. */
function pendingQuestion(snapshot: { tasks: { interrupts: { id?: string; value?: unknown }[] }[] }): { id: string; question: string } | null {
  for (const i of snapshot.tasks.flatMap((t) => t.interrupts)) {
    const v = i.value as Partial<QuestionInterrupt> | undefined;
    if (i.id && v?.kind === "question" && typeof v.question === "string") return { id: i.id, question: v.question };
  }
  return null;
}

/** Access for the expiry sweeper (internal input, never from HTTP): the thread as it is. */
async function systemAccess(db: Db, threadId: string) {
  const thread = await db.thread.findUnique({ where: { id: threadId }, include: { flow: true, flowVersion: true } });
  if (!thread) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  return { thread, role: "owner" as const };
}
