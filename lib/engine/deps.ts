import type { LanguageModel } from "ai";
import type { z } from "zod";
import type { ChallengeContext } from "../approvals/service";
import type { FlowSpec } from "../flow/compile";
import type { RetrievedMemory } from "../memory/types";
import type { Reconciliation } from "../tools/gateway";
import type { ToolRunResult } from "../tools/types";
import type { AuditRecord } from "./state";
import type { ToolExecutionStore } from "./tool-executions";

/** A resolved model and what the UI says about it (say when offline). */
export interface ResolvedModel {
  model: LanguageModel;
  provider: string;
  modelId: string;
  offline: boolean;
}

/** The call a tool run belongs to: its step (null outside a plan), agent and call id. */
export interface ToolCallContext {
  stepId: string | null;
  agentId: string;
  toolCallId: string;
}

/** Result of validating and consuming an approval (the seven factors, docs/security.md). */
export type ConsumeResult = { ok: true /** Consumed before by this same call (a re-run after a crash). */; replayed?: boolean } | { ok: false; reason: string; message: string };

/**
 * Everything the graph's nodes reach outside the state, injected by the graph builder so
 * that nodes stay plain functions a unit test can run with fakes.
 */
export interface EngineDeps {
  flow: FlowSpec;
  /**
   * The run's permission level (docs/architecture.md#policies: rules may differ per level): from the role of the user who
   * started the thread, read when the run starts or resumes; policy rules may depend on it.
   */
  permission: "user" | "admin" | "system";
  /** Model for an agent's model id ("" = the flow default). */
  resolveModel(modelId: string): ResolvedModel;
  tools: {
    /** Declared tool: description, zod input schema, side-effect flag; undefined if unknown. */
    describe(name: string): { description: string; input: z.ZodType; sideEffect: boolean } | undefined;
    /**
     * Runs a tool in the thread's sandbox through the gateway; never throws for tool
     * failures. `call` names the step, agent and call it belongs to (memory provenance).
     */
    run(name: string, args: unknown, threadId: string, call?: ToolCallContext): Promise<ToolRunResult>;
    /**
     * For a call whose outcome is unknown after a crash: whether the workspace shows it
     * happened, or it is safe to run again (lib/tools/gateway.ts reconcileTool). Absent:
     * always ask a person.
     */
    reconcile?(name: string, args: unknown, threadId: string, call: ToolCallContext): Promise<Reconciliation>;
  };
  /**
   * The memory service bound to this run's workspace (docs/architecture.md#memory); absent when the flow
   * turns memory off (and in unit tests).
   */
  memory?: {
    /** The last 20 short-term entries of the thread and the top 3 facts for the query and role. */
    retrieve(input: { threadId: string; query: string; agentRole: string; agentId: string; stepId: string | null }): Promise<RetrievedMemory>;
    /** Appends a short-term entry; idempotent per (thread, key). */
    append(threadId: string, entry: { key: string; agentId: string; action: string; result: string; stepId: string | null }): Promise<void>;
  };
  approvals: {
    /** Stores a signed challenge (docs/architecture.md#approvals) and returns its id, token and expiry (ISO). */
    create(
      input: {
        threadId: string;
        userId: string;
        toolName: string;
        toolCallId: string;
        canonicalArgs: string;
        argsHash: string;
      } & ChallengeContext,
    ): Promise<{ id: string; token: string; expiresAt: string }>;
    /**
     * Validates the seven factors (id, expiry, args hash, HMAC, one-time use, thread, user)
     * and marks the challenge consumed in one conditional update; the same call presenting
     * it again after a crash is accepted without a second consumption (`replayed`).
     */
    consume(input: { approvalId: string; token: string; threadId: string; userId: string; argsHash: string; editedArgsHash?: string; toolCallId: string }): Promise<ConsumeResult>;
    /**
     * Marks a pending challenge rejected (no-op when already decided), as `decision` (default
     * reject; respond: the approver answered instead of running it); answers who decided, as
     * the run's report names them (their name, else their email).
     */
    reject(input: { approvalId: string; threadId: string; userId: string; reason: string; decision?: "reject" | "respond" }): Promise<{ by: string }>;
  };
  /** Blob storage for evicted tool outputs (docs/architecture.md#retries-limits-and-eviction). */
  blobs: {
    /** Stores an output; returns its pointer `blob:<id>`. */
    put(threadId: string, toolName: string, toolCallId: string, content: string): Promise<string>;
    /** Reads an output of this thread back; null when the pointer is not this thread's. */
    read(threadId: string, pointer: string): Promise<{ content: string; sizeChars: number } | null>;
  };
  /**
   * The durable record of side-effecting tool calls (intent before, outcome after), so a
   * re-run node never runs a completed call twice (docs/durability.md "Side effects").
   */
  executions: ToolExecutionStore;
  /**
   * Appends to the thread's persistent audit trail; a record with a `key` already written
   * for the thread is not written again.
   */
  audit(threadId: string, record: AuditRecord): Promise<void>;
  /** Clock, ms since the epoch (injectable for tests). */
  now(): number;
  /**
   * When this invocation of the graph began, ms since the epoch (set by the run service for
   * every message, decision or continue). The time limit counts from the later of this and
   * the state's `run_started_at`, so continuing a run after a long stop starts a new clock
   * (5 minutes per run). Optional: without it, `run_started_at` alone counts.
   */
  invokedAt?: number;
}
