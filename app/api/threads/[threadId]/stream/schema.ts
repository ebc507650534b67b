import { z } from "zod";
import { HumanDecision } from "@/lib/approvals/inbox-item";
import { MAX_TASK_CHARS, taskTooLongIssue } from "@/lib/task-text";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/**
 * POST body (sent by the run view's chat transport and the inbox): a user message, a
 * continue, a decision on a pending approval, or the choice for a call whose outcome is
 * unknown. Approval tokens are base64url HMACs (43 chars).
 */
export const Body = z.object({
  input: z.discriminatedUnion("kind", [
    /** Continue a run the server stopped in the middle of, from its last checkpoint. */
    z.object({ kind: z.literal("continue") }),
    z.object({
      kind: z.literal("message"),
      text: z.string().trim().min(1, "Write a message.").max(MAX_TASK_CHARS, { error: taskTooLongIssue }),
      /** Directed mode: run the message on this agent only. */
      agentId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .optional(),
    }),
    z.object({
      kind: z.literal("decision"),
      approvalId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "approval ids are 6-64 of [A-Za-z0-9_-]"),
      /** LangGraph HumanResponse kinds (issue 4): approve = accept, edit, respond, reject, ignore. */
      decision: HumanDecision,
      /** The card's one-time token; required to approve or edit. */
      token: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,128}$/, "tokens are base64url")
        .optional(),
      /** The SHA-256 of the arguments the approver was shown (hex). */
      argsHash: z
        .string()
        .regex(/^[0-9a-f]{64}$/, "a lower-case hex SHA-256")
        .optional(),
      /** edit: the new arguments, a JSON object (at most 64 KB once serialised). */
      args: z
        .record(z.string(), z.unknown())
        .refine((a) => JSON.stringify(a).length <= 65_536, "the edited arguments are over 64 KB")
        .optional(),
      comment: z.string().trim().max(1000).optional(),
    }),
    /**
     * The choice for a side-effecting call whose outcome is unknown after a crash
     * (docs/durability.md "Side effects"): retry runs it again, skip reports it as not done,
     * happened records that it took effect (the person confirms it) and the run goes on.
     */
    z.object({
      kind: z.literal("outcome"),
      toolCallId: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "tool call ids are 1-128 of [A-Za-z0-9_.:-]"),
      choice: z.enum(["retry", "skip", "happened"], "choice is retry, skip or happened"),
    }),
  ]),
});

/**
 * GET query (the AI SDK's stream resume, or any follower): which run to follow and from
 * where. Without `runId` the thread's active run; without `after` from the run's first event.
 */
export const FollowQuery = z.object({
  /** Follow this run of the thread (even one that has ended: its events are replayed). */
  runId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "run ids are 1-64 of [A-Za-z0-9_-]")
    .optional(),
  /** Only events with a seq above this one (a cursor from an earlier follow). */
  after: z.coerce.number({ error: "after: a seq, a whole number of 0 or more" }).int("after: a whole number").min(0, "after: 0 or more").optional(),
});
