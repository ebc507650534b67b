import "server-only";
import { Command } from "@langchain/langgraph";
import { approveChallenge, rejectChallenge } from "../approvals/service";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { FlowDocument } from "../flow/schema";
import { userModelResolver } from "../models/provider-settings";
import { canonicalArgs } from "../policy/canonical";
import type { ResolvedModel } from "./deps";
import { approvalSecret, createEngineDeps, type EngineDepsOptions } from "./engine-deps";
import { buildGraph } from "./graph";
import { classifyIntent } from "./intent";
import type { ApprovalInterrupt, ApprovalResume } from "./nodes/await-approval";
import type { QuestionInterrupt } from "./nodes/finalizer";
import type { GraphStateValue } from "./state";
import { eventsOf, type NamerState } from "../events/run-events";
import type { RunChunk } from "./ui-parts";

/** What starts a run on a thread: a user message, or a decision on its pending approval. */
export type RunInput =
  | { kind: "message"; text: string; /** Directed mode: the agent the user picked (SPEC.md 1). */ agentId?: string }
  /** Continue a run that stopped between two steps (the server went away) from its last checkpoint. */
  | { kind: "continue" }
  | { kind: "decision"; approvalId: string; decision: "approve" | "reject"; token?: string; comment?: string };

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
  /** The model the flow's default resolves to (shown in the UI). */
  model: ResolvedModel;
  /** Runs the graph, yielding each chunk after it is stored as a RunEvent. */
  stream(): AsyncGenerator<RunChunk>;
}

const active = new Set<string>();

/**
 * True while a run of the thread streams in this server process. A thread marked running
 * without one was interrupted (the server stopped) and can be continued.
 */
export function isRunActive(threadId: string): boolean {
  return active.has(threadId);
}

/**
 * Checks and prepares one run of a thread's graph (SPEC.md 2, 8). Everything that can be
 * refused is refused here, before any byte is streamed: the thread must belong to the
 * user (404), no other run may be streaming on it (409); a decision must name the pending
 * approval and pass its seven factors, and approving moves it pending -> approved in one
 * conditional update (the loser of a race gets 409), rejecting pending -> rejected.
 * @throws AppError with the status the route returns.
 */
export async function prepareRun(opts: PrepareRunOptions): Promise<PreparedRun> {
  const { db, threadId, userId, input } = opts;
  const thread = await db.thread.findFirst({ where: { id: threadId, userId }, include: { flowVersion: true } });
  if (!thread) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  if (active.has(threadId)) throw new AppError("conflict", "run_in_progress", "A run is already streaming on this thread; wait for it to finish.");
  const doc = FlowDocument.parse(JSON.parse(thread.flowVersion.document));
  const now = opts.deps?.now ?? Date.now;
  // The user's own provider (Settings) if any, else the server's environment, else offline.
  const resolveModel = opts.deps?.resolveModel ?? (await userModelResolver(db, userId));
  const deps = createEngineDeps({ db, doc, ...opts.deps, resolveModel });
  const graph = buildGraph(deps, new PrismaCheckpointSaver(db));
  const config = { configurable: { thread_id: threadId } };
  const snapshot = await graph.getState(config);
  const values = snapshot.values as Partial<GraphStateValue>;

  let graphInput: unknown;
  let intent: "task" | "conversation" | null = null;
  let label: string;
  if (input.kind === "continue") {
    const interruptedRun = thread.status === "running" && snapshot.next.length > 0 && !snapshot.tasks.some((t) => t.interrupts.length > 0);
    if (!interruptedRun) throw new AppError("conflict", "nothing_to_continue", "This thread has no interrupted run to continue.");
    await db.run.updateMany({ where: { threadId, status: "running" }, data: { status: "interrupted", endedAt: new Date(), error: "The server stopped during the run." } });
    // No input: LangGraph continues from the last checkpoint, exactly where the run stopped.
    graphInput = null;
    label = "Continue the interrupted run";
  } else if (input.kind === "decision") {
    // The call waits in an interrupt of its step's branch; its payload has the exact args.
    const pending = snapshot.tasks.flatMap((t) => t.interrupts).find((i) => (i.value as ApprovalInterrupt[] | undefined)?.[0]?.approval_id === input.approvalId);
    const request = (pending?.value as ApprovalInterrupt[] | undefined)?.[0];
    if (!pending?.id || !request) {
      throw new AppError("conflict", "no_pending_approval", `Approval ${input.approvalId} is not a call this thread is waiting on.`);
    }
    const argsHash = canonicalArgs(request.action_request.args).hash;
    const approvalOpts = { db, secret: opts.deps?.approvalSecret ?? approvalSecret(), now };
    if (input.decision === "approve") {
      await approveChallenge(approvalOpts, { approvalId: input.approvalId, token: input.token ?? "", threadId, userId, argsHash }, input.comment);
    } else {
      await rejectChallenge(approvalOpts, { approvalId: input.approvalId, threadId, userId }, input.comment);
    }
    const resume: ApprovalResume = {
      response: input.decision === "approve" ? { type: "accept", args: null } : { type: "response", args: input.comment?.trim() || "rejected from the approval card" },
      approval_id: input.approvalId,
      token: input.token ?? null,
      decided_by: userId,
    };
    // Several steps may wait at once: resume exactly this interrupt, by id.
    graphInput = new Command({ resume: { [pending.id]: resume }, update: { run_started_at: now() } });
    const p = { name: request.action_request.action };
    label = input.decision === "approve" ? `Approved ${p.name}` : `Rejected ${p.name}${input.comment ? `: ${input.comment}` : ""}`;
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
  await db.thread.update({ where: { id: threadId }, data: { status: "running" } });
  const last = await db.runEvent.findFirst({ where: { threadId }, orderBy: { seq: "desc" }, select: { seq: true } });
  let seq = last?.seq ?? 0;
  const store = async (type: string, data: unknown) => {
    seq += 1;
    await db.runEvent.create({ data: { threadId, runId: run.id, seq, type, data: JSON.stringify(data) } });
  };
  const namer: NamerState = { plans: new Set(values.plan ? [values.plan.id] : []), agent: null };
  /** Stores a chunk under its event name (and any further event it stands for). */
  const storeChunk = async (chunk: RunChunk) => {
    const [primary, ...more] = eventsOf(chunk, namer);
    await store(primary?.name ?? chunk.type, chunk);
    for (const e of more) await store(e.name, { type: "event", name: e.name, payload: e.payload });
  };
  await store("user_message", { text: label, kind: input.kind });
  if (intent) await store("intent_classified", { type: "event", name: "intent_classified", payload: { intent } });
  const model = deps.resolveModel(doc.settings.model);
  const modelView = { provider: model.provider, modelId: model.modelId, offline: model.offline };

  async function* stream(): AsyncGenerator<RunChunk> {
    active.add(threadId);
    const runChunk = (status: "running" | "awaiting_approval" | "awaiting_input" | "completed" | "failed", error: { code: string; message: string } | null): RunChunk => ({
      type: "data-run",
      id: run.id,
      data: { runId: run.id, status, model: modelView, error, usage },
    });
    let usage: { inputTokens: number; outputTokens: number } | null = null;
    let final: RunChunk;
    try {
      const first = runChunk("running", null);
      await storeChunk(first);
      yield first;
      const chunks = await graph.stream(graphInput as never, { ...config, streamMode: ["custom", "updates"], recursionLimit: 1000 });
      let lifecycle = values.lifecycle ?? "INIT";
      let transitions = 0;
      for await (const [mode, payload] of chunks as AsyncIterable<[string, unknown]>) {
        if (mode === "custom") {
          const chunk = payload as RunChunk;
          await storeChunk(chunk);
          yield chunk;
          continue;
        }
        // Node updates: record each lifecycle transition (SPEC.md 3, seed 003).
        for (const [node, update] of Object.entries(payload as Record<string, unknown>)) {
          const to = (update as { lifecycle?: string } | null)?.lifecycle;
          if (!to || to === lifecycle) continue;
          transitions += 1;
          const chunk: RunChunk = { type: "data-lifecycle", id: `${run.id}-${transitions}`, data: { from: lifecycle, to, node, at: new Date(now()).toISOString() } };
          lifecycle = to as typeof lifecycle;
          await storeChunk(chunk);
          yield chunk;
        }
      }
      const after = await graph.getState(config);
      const v = after.values as GraphStateValue;
      const question = pendingQuestion(after);
      if (question) {
        const chunk: RunChunk = { type: "text", id: `question-${question.id}`, text: question.question };
        await storeChunk(chunk);
        yield chunk;
      }
      usage = { inputTokens: v.token_usage.input_tokens - (values.token_usage?.input_tokens ?? 0), outputTokens: v.token_usage.output_tokens - (values.token_usage?.output_tokens ?? 0) };
      const waiting = after.tasks.some((t) => t.interrupts.length > 0);
      const status = question ? "awaiting_input" : waiting ? "awaiting_approval" : v.lifecycle === "FAILED" ? "failed" : "completed";
      final = runChunk(status, v.error && !waiting ? { code: v.error.code, message: v.error.message } : null);
    } catch (err) {
      console.error(`run ${run.id} on thread ${threadId} failed`, err);
      final = runChunk("failed", { code: "run_error", message: err instanceof Error ? err.message : String(err) });
    } finally {
      active.delete(threadId);
    }
    const status = final.type === "data-run" ? final.data.status : "failed";
    await storeChunk(final);
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
    yield final;
  }

  return { runId: run.id, model, stream };
}

/** The question the run waits on (a Finalizer interrupt), with its interrupt id. */
function pendingQuestion(snapshot: { tasks: { interrupts: { id?: string; value?: unknown }[] }[] }): { id: string; question: string } | null {
  for (const i of snapshot.tasks.flatMap((t) => t.interrupts)) {
    const v = i.value as Partial<QuestionInterrupt> | undefined;
    if (i.id && v?.kind === "question" && typeof v.question === "string") return { id: i.id, question: v.question };
  }
  return null;
}
