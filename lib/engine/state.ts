import { Annotation } from "@langchain/langgraph";
import type { ModelMessage } from "ai";
import type { ApprovalDecisionKind } from "../approvals/inbox-item";
import type { StructuredError } from "../errors";

/**
 * The supervisor graph's state (docs/architecture.md#state-and-channels). Everything here is plain JSON
 * so that PrismaCheckpointSaver can checkpoint it and a run resumes exactly where it
 * stopped. Timestamps are ISO-8601 strings; sizes are in characters.
 */

/** A chat message of the thread (user task, replies, the final answer). */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

/**
 * Step status (docs/runs.md "Status vocabulary"): completed (its work was done), failed (it
 * errored on every try), blocked (a policy refused its action: final, never retried),
 * rejected (an approver said no: final), skipped (it did not run: a step it needs was not
 * completed, or the run was cancelled).
 */
export type StepStatus = "pending" | "in_progress" | "completed" | "failed" | "skipped" | "blocked" | "rejected";

/** Model tokens (AI SDK usage), summed. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

/** Adds two usages. */
export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({ input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens });

/** A usage from an AI SDK `usage` object (missing counts are 0). */
export const usageOf = (u: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): TokenUsage => ({
  input_tokens: u?.inputTokens ?? 0,
  output_tokens: u?.outputTokens ?? 0,
});

/**
 * The `model_usage` key of a resolved model: `kind/name:modelId` (docs/models.md "Costs"); the
 * kind prices it (lib/models/pricing.ts), the name and id say which model it was.
 */
export const modelKey = (m: { provider: string; name?: string; modelId: string }): string => `${m.provider}/${m.name ?? m.provider}:${m.modelId}`;

/** One plan step (docs/architecture.md#state-and-channels). `depends_on` holds step ids. */
export interface PlanStep {
  id: string;
  index: number;
  agent_id: string;
  task: string;
  expected_output: string;
  depends_on: string[];
  status: StepStatus;
  tries: number;
  max_tries: number;
  result: string | null;
  error: string | null;
  started_at: string | null;
  ended_at: string | null;
  /** Tokens the step's agent used, across its tries (copied in by the Supervisor). */
  usage?: TokenUsage;
  /** A reviewer's request for changes the step's next run must act on (docs/runs.md "Reviews"). */
  feedback?: string | null;
  /** How many times a review sent this (reviewing) step's work back for changes. */
  revisions?: number;
  /** The failed call (`tool:args_hash:output_hash`) its last failed try ended on, if any. */
  failed_call?: string | null;
}

/** The plan (docs/architecture.md#state-and-channels). */
export interface Plan {
  id: string;
  query: string;
  /**
   * completed: every step completed; incomplete: the plan ran to its end but some steps were
   * blocked, rejected or skipped (docs/runs.md "Status vocabulary"); failed: it stopped on an
   * error; cancelled: an approver dismissed a call.
   */
  status: "planning" | "executing" | "completed" | "incomplete" | "failed" | "cancelled";
  steps: PlanStep[];
  current_step_index: number;
  summary: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** A tool call the Executor proposed, with the canonical form the RiskGate checks (docs/architecture.md#the-graph). */
export interface ProposedTool {
  name: string;
  args: unknown;
  /** RFC 8785 canonical JSON of `args`. */
  canonical_args: string;
  /** SHA-256 hex of `canonical_args`. */
  args_hash: string;
  tool_call_id: string;
  /**
   * The approval whose call an approver edited without its token (decision `revise`): the
   * RiskGate then asks for an approval even where the policy would allow the call.
   */
  revised_from?: string;
}

/** The result of the last tool call (docs/architecture.md#state-and-channels). */
export interface ToolResultState {
  tool_name: string;
  call_id: string;
  output: string;
  status: "success" | "error" | "evicted";
  evicted: boolean;
  pointer: string | null;
  size_chars: number;
  rehydration_allowed: boolean;
  metadata: Record<string, unknown>;
}

/** Who is acting now (current agent identity). */
export interface AgentIdentity {
  id: string;
  name: string;
  icon: string;
  color: string;
}

/** One delegation by the Supervisor (handoff history). */
export interface Handoff {
  id: string;
  from: string;
  to: string;
  reason: "plan_step" | "capability_match" | "user_request" | "error_recovery" | "clarification";
  explanation: string;
  step_id: string | null;
  timestamp: string;
}

/** An audit record kept in the state (also written to AuditEntry rows). */
export interface AuditRecord {
  action: string;
  at: string;
  actor: string;
  tool?: string;
  args_hash?: string;
  detail?: string;
  /**
   * Idempotency key of the AuditEntry row (e.g. `tool_executed:<call id>:<attempt>`): a node
   * that runs again after a crash writes the same key and the entry is not recorded twice
   * (docs/durability.md "Side effects"). Absent for entries that may repeat.
   */
  key?: string;
}

/**
 * The outcome the ApprovalHandler hands to the Supervisor: approved or edited
 * (the tool ran), responded (feedback, the step goes on), rejected, ignored (the run is
 * cancelled), expired (the Supervisor may ask again), invalid (a factor failed).
 */
export interface ApprovalOutcome {
  approval_id: string;
  tool_name: string;
  decision: "approved" | "edited" | "responded" | "rejected" | "ignored" | "expired" | "invalid";
  reason: string;
}

/**
 * A decision to apply to the pending approval, from the card or inbox (resume) or the
 * chat (Router). Kinds follow LangGraph's HumanResponse (accept = approve, edit, response
 * = respond or reject, ignore) plus `expired`, sent by the expiry sweeper.
 */
export interface ApprovalRequest {
  kind: ApprovalDecisionKind;
  approval_id: string;
  token: string | null;
  via: "card" | "chat" | "system";
  decided_by: string;
  /** Rejection reason or the feedback of a respond. */
  reason: string | null;
  /** An edit's new arguments (JSON object); null otherwise. */
  edited_args?: unknown;
}

/** What the Executor returned for the step in progress when it answered without a tool. */
export interface StepOutput {
  step_id: string;
  text: string;
  /** False when the try failed (model or tool error); the Supervisor retries up to max_tries. */
  ok: boolean;
  /**
   * Set when the try must not be retried because someone decided against its action: the
   * flow's policy blocked it, an approver rejected it, or a person chose to skip a call whose
   * outcome was unknown after a crash. `text` then says who and why.
   */
  final?: "blocked" | "rejected" | "skipped";
}

/**
 * A step's branch: everything about one step in progress (proposed_tool,
 * last_tool_result, awaiting_approval, approval state...). Steps whose dependencies are
 * done run side by side, each in its own branch (LangGraph `Send`); the branch travels in
 * the Send payload from node to node and is mirrored in the state's `branches` map, so a
 * branch that lost its task (a new message while it waited) can be dispatched again.
 */
export interface StepBranch {
  step_id: string;
  /** The agent working on the step (current agent identity). */
  agent: AgentIdentity;
  /**
   * running: a node of the branch is working; returned: the Interpreter handed a tool result
   * back to the Supervisor; awaiting_approval: suspended at AwaitApproval; done: `output` set.
   */
  phase: "running" | "returned" | "awaiting_approval" | "done";
  /** The Executor's working conversation (tool calls and results). */
  executor_messages: ModelMessage[];
  proposed_tool: ProposedTool | null;
  last_tool_result: ToolResultState | null;
  awaiting_approval: boolean;
  approval_id: string | null;
  approval_request: ApprovalRequest | null;
  approval_outcome: ApprovalOutcome | null;
  /** The step's answer (or failure) when phase is done. */
  output: StepOutput | null;
  /** Tool calls with input and output hashes, for the loop detector (docs/architecture.md#retries-limits-and-eviction). */
  tool_history: { tool: string; args_hash: string; output_hash: string }[];
}

/** The payload a branch node receives through `Send`: who, the plan snapshot, the branch. */
export interface BranchTask {
  thread_id: string;
  user_id: string;
  plan: Plan;
  branch: StepBranch;
}

/** Run lifecycle states (docs/architecture.md#run-lifecycle). */
export type Lifecycle =
  | "INIT"
  | "CONTEXT_BUILD"
  | "PLAN_GENERATION"
  | "PLAN_CHECK"
  | "EXECUTION_PREPARE"
  | "STEP_EXECUTION"
  | "STEP_REVIEW"
  | "GLOBAL_REVIEW"
  | "REPLAN"
  | "WAIT_HUMAN"
  | "ROLLBACK"
  | "COMPLETED"
  | "FAILED";

/**
 * The state keeps the last 20 audit records: every checkpoint that follows an audited
 * node stores them again, so the window is what each tool call pays in serialisation
 * (docs/architecture.md#state-and-channels); the complete trail is in the AuditEntry table.
 */
export const AUDIT_IN_STATE = 20;

const replace = <T>(init: () => T) => Annotation<T>({ reducer: (_a: T, b: T) => b, default: init });
const append = <T>() => Annotation<T[]>({ reducer: (a: T[], b: T[]) => a.concat(b), default: () => [] });

/** LangGraph state annotation of the compiled graph. */
export const GraphState = Annotation.Root({
  thread_id: replace<string>(() => ""),
  user_id: replace<string>(() => ""),
  intent: replace<"conversation" | "task" | null>(() => null),
  /** Thread messages; the reducer appends (docs/architecture.md#state-and-channels). */
  messages: append<ChatMessage>(),
  agent_mode: replace<"autonomous" | "directed">(() => "autonomous"),
  /** Directed mode: the agent the user picked for this task (docs/architecture.md#flows-and-compilation). */
  directed_agent_id: replace<string | null>(() => null),
  /** The plan; the reducer replaces it and stamps `updated_at` (docs/architecture.md#state-and-channels). */
  plan: Annotation<Plan | null>({
    reducer: (_a, b) => (b ? { ...b, updated_at: new Date().toISOString() } : null),
    default: () => null,
  }),
  /** One record per step in progress or done in this plan, keyed by step id (see StepBranch). */
  branches: Annotation<Record<string, StepBranch>>({
    reducer: (a, b) => ({ ...a, ...b }),
    default: () => ({}),
  }),
  awaiting_user_input: replace<boolean>(() => false),
  /** Set by the Router when a message arrives while branches wait for approval (see Supervisor). */
  redispatch_awaiting: replace<boolean>(() => false),
  /** Set when an approver dismissed a call (HumanResponse "ignore"): the run ends cancelled. */
  cancelled: replace<{ by: string; reason: string } | null>(() => null),
  /** The question the Finalizer asks: when the run could not go on (docs/architecture.md#retries-limits-and-eviction), or a Human input step's prompt. */
  question: replace<string | null>(() => null),
  /** The Human input step whose question the run waits on (docs/architecture.md#interrupts); null otherwise. */
  human_step_id: replace<string | null>(() => null),
  /** The user's answer to a Human input step, for the Supervisor to record as the step's result. */
  human_answer: replace<{ step_id: string; text: string } | null>(() => null),
  /** Why the Planner is asked for a new plan (failure, and the user's answer). */
  replan_reason: replace<string | null>(() => null),
  /** New plans made in this task after failures (at most one before asking the user). */
  replans: replace<number>(() => 0),
  /** Appended by every proposal, decision and execution (docs/architecture.md#approvals). */
  audit_trail: Annotation<AuditRecord[]>({ reducer: (a, b) => (b.length === 0 ? a : a.concat(b).slice(-AUDIT_IN_STATE)), default: () => [] }),
  current_agent: replace<AgentIdentity | null>(() => null),
  handoffs: append<Handoff>(),
  iterations: replace<number>(() => 0),
  /** When this run (not the thread) started, ms since the epoch; for the time limit. */
  run_started_at: replace<number>(() => 0),
  lifecycle: replace<Lifecycle>(() => "INIT"),
  /** A structured error that stops the run; the first one wins, null clears (new task). */
  error: Annotation<StructuredError | null>({ reducer: (a, b) => (b === null ? null : (a ?? b)), default: () => null }),
  final_answer: replace<string | null>(() => null),
  /** Tokens of every model call in the thread; the reducer adds. */
  token_usage: Annotation<TokenUsage>({ reducer: addUsage, default: () => ({ input_tokens: 0, output_tokens: 0 }) }),
  /**
   * Tokens per model, keyed `provider:model` as the call resolved it (docs/models.md "Costs"),
   * added by every node that calls a model; the run's cost prices each model's share.
   */
  model_usage: Annotation<Record<string, TokenUsage>>({
    reducer: (a, b) => {
      const out = { ...a };
      for (const [k, v] of Object.entries(b)) out[k] = addUsage(out[k] ?? { input_tokens: 0, output_tokens: 0 }, v);
      return out;
    },
    default: () => ({}),
  }),
  /** Tokens per step id, added by the Executor; the Supervisor copies them into the plan. */
  step_usage: Annotation<Record<string, TokenUsage>>({
    reducer: (a, b) => {
      const out = { ...a };
      for (const [k, v] of Object.entries(b)) out[k] = addUsage(out[k] ?? { input_tokens: 0, output_tokens: 0 }, v);
      return out;
    },
    default: () => ({}),
  }),
});

/** A full state value. */
export type GraphStateValue = typeof GraphState.State;
/** A partial update a node returns. */
export type GraphUpdate = typeof GraphState.Update;
