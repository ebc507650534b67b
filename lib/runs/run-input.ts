import "server-only";
import { Command } from "@langchain/langgraph";
import { z } from "zod";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { classifyIntent } from "../engine/intent";
import type { QuestionInterrupt } from "../engine/nodes/finalizer";
import type { RunContext } from "./run-context";
import type { Role } from "../auth/roles";
import { applyDecision, type DecisionInput, waitingCalls } from "./run-decision";
import { applyOutcomeChoice, type OutcomeInput, waitingOutcomes } from "./run-outcome";

/** What starts a run on a thread: a user message, a decision on a pending approval, a continue. */
export type RunInput =
  | { kind: "message"; text: string /** Directed mode: the agent the user picked. */; agentId?: string }
  /** Continue a run that stopped between two steps (the server went away) from its last checkpoint. */
  | { kind: "continue" }
  | DecisionInput
  /** The choice for a side-effecting call whose outcome is unknown after a crash (run-outcome.ts). */
  | OutcomeInput
  /** Internal (the expiry sweeper, never HTTP): tell the run that a challenge expired. */
  | { kind: "expired"; approvalId: string };

/**
 * A run's input as its job stores it (RunJob.input, JSON), fixed when the request is
 * accepted so that any worker, now or after a crash, replays the same run
 * (docs/durability.md#runs-are-jobs). `graph` is what the graph is streamed with: nothing
 * (continue from the last checkpoint), a new state (a message), or a resume of the
 * interrupts the thread waits on (a decision, an answer, an expiry).
 */
export const JobInput = z.object({
  kind: z.enum(["message", "continue", "decision", "expired", "outcome"]),
  /** What the run view shows as the user's turn. */
  label: z.string(),
  /** The run's W3C trace id (32 hex chars), fixed at acceptance: events, logs and spans carry it. */
  traceId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  intent: z.enum(["task", "conversation"]).nullable(),
  /** Set for `expired`: the approval whose expiry the run is told about. */
  approvalId: z.string().optional(),
  graph: z.discriminatedUnion("type", [
    z.object({ type: z.literal("none") }),
    z.object({ type: z.literal("state"), state: z.record(z.string(), z.unknown()) }),
    z.object({ type: z.literal("resume"), resume: z.record(z.string(), z.unknown()), update: z.record(z.string(), z.unknown()) }),
  ]),
});
/** A run's stored input. */
export type JobInput = z.infer<typeof JobInput>;

/** The graph input of a stored job input: null, a state, or a `Command({ resume, update })`. */
export function graphInputOf(input: JobInput): unknown {
  switch (input.graph.type) {
    case "none":
      return null;
    case "state":
      return input.graph.state;
    case "resume":
      return new Command({ resume: input.graph.resume, update: input.graph.update });
  }
}

/** Options of {@link resolveRunInput}. */
export interface ResolveInputOptions {
  /** The database or the accepting transaction: a decision is applied in it. */
  tx: Db;
  threadId: string;
  userId: string;
  /** `userId`'s role in the thread's workspace, as the run checks resolved it (null: the system's own input). */
  role: Role | null;
  input: RunInput;
  /** The thread's status and latest state, read before the transaction. */
  status: string;
  snapshot: Awaited<ReturnType<RunContext["graph"]["getState"]>>;
  ctx: RunContext;
  flowHasAgent: (agentId: string) => boolean;
  secret: string;
  now: () => number;
}

/**
 * Turns a request into the job's input. A decision (or an expiry) is applied here, on `tx`,
 * so it is recorded in the same transaction as the run that carries it out: no approval ends
 * up approved but never used (docs/durability.md#decisions). A message answers the question
 * the run waits on, if any; else it starts a new task, classified before the graph.
 * @throws AppError conflict `nothing_to_continue` for a continue without an interrupted run;
 *   unprocessable `unknown_agent`; anything applyDecision throws (403, 409, 410, 422).
 */
export async function resolveRunInput(o: ResolveInputOptions): Promise<JobInput> {
  const { input, snapshot, now } = o;
  if (input.kind === "continue") {
    // A thread still marked running with a next node was cut off by a stopped server that
    // predates its lease, or by a run recovery gave up on: continue from the last checkpoint.
    // `tasks`, not `next`: next leaves out tasks whose writes are already saved.
    if (!(o.status === "running" && snapshot.tasks.length > 0)) throw new AppError("conflict", "nothing_to_continue", "This thread has no interrupted run to continue.");
    await o.tx.run.updateMany({
      where: { threadId: o.threadId, status: { in: ["running", "queued"] } },
      data: { status: "interrupted", endedAt: new Date(now()), error: "The server stopped during the run." },
    });
    return { kind: "continue", label: "Continue the interrupted run", intent: null, graph: { type: "none" } };
  }
  if (input.kind === "decision" || input.kind === "expired") {
    const decided = await applyDecision({ db: o.tx, secret: o.secret, now, ...(o.role ? { deciderRole: o.role } : {}) }, o.threadId, o.userId, input, waitingCalls(snapshot), o.ctx.deps);
    return {
      kind: input.kind,
      label: decided.label,
      intent: null,
      ...(input.kind === "expired" ? { approvalId: input.approvalId } : {}),
      graph: { type: "resume", resume: decided.resume, update: { run_started_at: now() } },
    };
  }
  if (input.kind === "outcome") {
    // Recorded on the call's execution row in this transaction: durable before the run resumes.
    const chosen = await applyOutcomeChoice(o.tx, o.threadId, o.userId, input, waitingOutcomes(snapshot), now());
    return { kind: "outcome", label: chosen.label, intent: null, graph: { type: "resume", resume: chosen.resume, update: { run_started_at: now() } } };
  }
  const question = pendingQuestion(snapshot);
  if (question) {
    // The run asked the user how to proceed (a Finalizer interrupt): the message is the answer.
    return { kind: "message", label: input.text, intent: null, graph: { type: "resume", resume: { [question.id]: input.text }, update: { run_started_at: now() } } };
  }
  if (input.agentId && !o.flowHasAgent(input.agentId)) throw new AppError("unprocessable", "unknown_agent", `input.agentId: the flow has no agent "${input.agentId}".`);
  const intent = input.agentId ? "task" : classifyIntent(input.text);
  const state = {
    intent,
    messages: [{ role: "user", content: input.text }],
    thread_id: o.threadId,
    user_id: o.userId,
    run_started_at: now(),
    agent_mode: input.agentId ? "directed" : "autonomous",
    directed_agent_id: input.agentId ?? null,
  };
  return { kind: "message", label: input.text, intent, graph: { type: "state", state } };
}

/** The question the run waits on (a Finalizer interrupt), with its interrupt id. */
export function pendingQuestion(snapshot: { tasks: { interrupts: { id?: string; value?: unknown }[] }[] }): { id: string; question: string } | null {
  for (const i of snapshot.tasks.flatMap((t) => t.interrupts)) {
    const v = i.value as Partial<QuestionInterrupt> | undefined;
    if (i.id && v?.kind === "question" && typeof v.question === "string") return { id: i.id, question: v.question };
  }
  return null;
}
