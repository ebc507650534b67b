import { EventEmitter } from "node:events";
import { z } from "zod";

/**
 * In-process pub/sub of approval changes (SPEC.md 7 event bus; issue 4 live inbox). The
 * approvals service publishes every change; the inbox's server-sent events route
 * subscribes and tells each browser to refresh its list and badge.
 */
export const ApprovalEvent = z.object({
  /** approval.created | approval.decided | approval.expired | approval.consumed */
  type: z.enum(["approval.created", "approval.decided", "approval.expired", "approval.consumed"]),
  approvalId: z.string(),
  threadId: z.string(),
  /** pending | approved | rejected | expired | consumed */
  status: z.string(),
  /** ms since the epoch */
  at: z.number(),
});
export type ApprovalEvent = z.infer<typeof ApprovalEvent>;

// One emitter per server process, kept on globalThis so Next's module copies share it.
const g = globalThis as { __phylacteryApprovalBus?: EventEmitter };
if (!g.__phylacteryApprovalBus) g.__phylacteryApprovalBus = new EventEmitter().setMaxListeners(0);
const bus = g.__phylacteryApprovalBus;

/**
 * Publishes an approval change to every subscriber of this process.
 * @throws ZodError when the event does not match its schema (a bug).
 */
export function publishApproval(event: ApprovalEvent): void {
  bus.emit("approval", ApprovalEvent.parse(event));
}

/**
 * Subscribes to approval changes.
 * @returns the function that unsubscribes.
 */
export function onApproval(listener: (event: ApprovalEvent) => void): () => void {
  bus.on("approval", listener);
  return () => bus.off("approval", listener);
}
