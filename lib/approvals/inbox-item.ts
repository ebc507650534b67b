import { z } from "zod";
import { RiskLevel } from "../flow/schema";

/**
 * The approval inbox's shapes, kept free of server code so client components
 * import them: the item a page or `GET /api/approvals` returns, and the zod schema of the
 * list's filters (the route's query and the page's search params parse with the same one).
 */

/** Stored statuses of an approval challenge (docs/architecture.md#approvals). */
export const ApprovalStatus = z.enum(["pending", "approved", "rejected", "expired", "consumed"]);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/**
 * The decisions an approver can send, after LangGraph's HumanResponse kinds:
 * approve (accept), edit, respond and reject (both a "response"), ignore.
 */
export const HumanDecision = z.enum(["approve", "edit", "respond", "reject", "ignore"]);
export type HumanDecision = z.infer<typeof HumanDecision>;

/**
 * How a challenge left pending (the `decision` column): a human decision, expiry, or
 * `revise`: an edit sent without the challenge's token (Agent Inbox's Edit), which runs
 * nothing and puts the edited call up for its own approval (docs/langgraph-api.md#deciding-approvals).
 */
export const ApprovalDecisionKind = z.enum([...HumanDecision.options, "expired", "revise"]);
export type ApprovalDecisionKind = z.infer<typeof ApprovalDecisionKind>;

/** The inbox's status filter: one stored status, or every approval. */
export const InboxStatus = z.enum(["pending", "approved", "rejected", "expired", "consumed", "all"]);
export type InboxStatus = z.infer<typeof InboxStatus>;

/** Sort orders of the list, both by expiry. */
export const InboxSort = z.enum(["expiry", "-expiry"]);
export type InboxSort = z.infer<typeof InboxSort>;

/** An empty query value (an unselected `<select>`) counts as absent. */
const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

/**
 * Filters of the inbox, as URL query / search params: `flowId` (one flow),
 * `risk` (one level), `status` (default `pending`: pending and not yet expired), `sort`
 * (`expiry` soonest first, the default, or `-expiry`).
 * Parse errors name the field (`risk: Invalid option ...`), which the routes answer with 422.
 */
export const InboxFilters = z.object({
  flowId: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "flow ids are 1-64 of [A-Za-z0-9_-]")
      .optional(),
  ),
  risk: z.preprocess(blankToUndefined, RiskLevel.optional()),
  status: z.preprocess(blankToUndefined, InboxStatus.default("pending")),
  sort: z.preprocess(blankToUndefined, InboxSort.default("expiry")),
});
export type InboxFilters = z.infer<typeof InboxFilters>;

/**
 * One approval as the inbox and its detail page show it: where (flow, workspace, thread),
 * who (agent, step, requester), what exactly (tool, RFC 8785 canonical arguments and
 * their SHA-256), how risky (risk, the matched policy rule), and its outcome. Times are
 * ISO 8601 strings.
 */
export interface InboxItem {
  approvalId: string;
  threadId: string;
  threadTitle: string;
  flowId: string;
  flowName: string;
  flowVersion: number;
  /** The workspace the thread's flow belongs to (whose tools and policies apply). */
  workspaceId: string;
  workspaceName: string;
  /** The agent that proposed the call, "" when unknown (older challenges). */
  agentName: string;
  /** The plan step's task, "" when unknown. */
  stepTask: string;
  toolName: string;
  toolCallId: string;
  /** RFC 8785 canonical arguments: exactly what runs on approve. */
  canonicalArgs: string;
  /** Lower-case hex SHA-256 of `canonicalArgs`. */
  argsHash: string;
  /**
   * The one-time token (HMAC) an approver presents. Only set when the user may decide
   * and the approval is pending; never sent to viewers.
   */
  token: string | null;
  risk: RiskLevel;
  /** The policy rule that asked for approval, as text. */
  rule: string;
  /** Email of the user who started the run. */
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  /** The stored status, except that a pending challenge past its expiry shows `expired`. */
  status: ApprovalStatus;
  decision: ApprovalDecisionKind | null;
  /** Email of the approver who decided, or null. */
  decidedBy: string | null;
  decidedAt: string | null;
  comment: string | null;
  /** An edit's canonical arguments and their SHA-256 (what ran instead). */
  editedArgs: string | null;
  editedArgsHash: string | null;
  /** True when the user's role lets them decide (owner, approver); viewers only see. */
  canDecide: boolean;
}

/** A flow the inbox can filter by. */
export interface InboxFlow {
  id: string;
  name: string;
}

/** Body of `GET /api/approvals`. */
export interface InboxList {
  items: InboxItem[];
  flows: InboxFlow[];
}

/** Data of the `approvals` server-sent event: the user's pending count, and what changed. */
export interface InboxEvent {
  /** Pending, unexpired approvals the user may decide. */
  pending: number;
  approvalId?: string;
  /** approval.created | approval.decided | approval.expired | approval.consumed */
  type?: string;
  status?: string;
}
