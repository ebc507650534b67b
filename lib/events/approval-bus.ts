import { z } from "zod";
import { logger } from "../log";
import { currentTraceIds, publish, subscribe } from "./bus";
import { fanout } from "./fanout-of";

/**
 * Approval changes on the event bus (SPEC.md 7; issue 4 live inbox): the `approval.*`
 * topics of lib/events/bus.ts. The approvals service publishes every change; it also goes to
 * every server process on the database (lib/events/approval-fanout.ts), whose inbox
 * server-sent events route tells each browser to refresh its list and badge.
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

const log = logger.child({ module: "approval-bus" });

/** The fan-out channel of approval changes (listened to by lib/events/approval-fanout.ts). */
export const APPROVALS_CHANNEL = "phylactery_approvals";

/**
 * Publishes an approval change on the bus (topic = `type`), with the trace id and run of
 * the run being served if any (a fresh trace id otherwise), and notifies it to every server
 * process (lib/events/approval-fanout.ts; call it once the change is committed). Subscribers
 * run in order; one that fails is logged, never thrown back at the approvals service.
 * @throws ZodError when the event does not match its schema (a bug).
 */
export function publishApproval(event: ApprovalEvent): void {
  const e = ApprovalEvent.parse(event);
  const { traceId, runId } = currentTraceIds();
  publish({ topic: e.type, traceId, threadId: e.threadId, runId, at: e.at, data: { approvalId: e.approvalId, status: e.status } }).catch((err: unknown) =>
    log.error({ err, approvalId: e.approvalId }, "approval subscriber failed"),
  );
  fanout()
    .notify(APPROVALS_CHANNEL, e)
    .catch((err: unknown) => log.error({ err, approvalId: e.approvalId }, "approval notification failed"));
}

/**
 * Subscribes to approval changes (`approval.*` on the bus), as {@link ApprovalEvent}s.
 * @returns the function that unsubscribes.
 */
export function onApproval(listener: (event: ApprovalEvent) => void): () => void {
  return subscribe("approval.*", (e) => {
    if (!e.topic.startsWith("approval.")) return;
    const data = e.data as { approvalId: string; status: string };
    listener({ type: e.topic as ApprovalEvent["type"], approvalId: data.approvalId, threadId: e.threadId ?? "", status: data.status, at: e.at });
  });
}
