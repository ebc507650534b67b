import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";
import { env } from "../env";
import { type BusEvent, subscribe } from "../events/bus";
import { logger } from "../log";
import { prismaRunStore } from "../runs/store-prisma";
import type { WebhookEvent } from "./events";
import { linkOf, type WebhookData, type WebhookPayload } from "./payload";
import { wakeWebhookSender } from "./wake";

const log = logger.child({ module: "webhooks" });

/**
 * Turns events on the bus into webhook deliveries (docs/webhooks.md "Events"): one
 * WebhookDelivery row per enabled endpoint of the thread's workspace that listens to the
 * event, keyed `<event>:<approval or run id>`, so an event seen twice (a second instance, a
 * replayed publish, a run recovered by another worker) makes one delivery only.
 *
 * - `approval.created` -> approval.required;
 * - `approval.decided`, `approval.expired`, and `approval.consumed` of an approval approved
 *   from the chat (pending -> consumed) -> approval.decided, once per approval;
 * - the final run part (`task.completed`, `task.failed`, `task.blocked`) -> run.finished for
 *   completed, incomplete and cancelled; run.failed for failed; nothing while the run waits
 *   on an approval or an answer (awaiting_approval, awaiting_input: not finished).
 */

const g = globalThis as { __phylacteryWebhookRecorder?: () => void };

/** What one bus event becomes: the webhook event, its key, and where to read the rest. */
type Plan =
  | { kind: "approval"; event: WebhookEvent; approvalId: string; runId: string | null }
  | { kind: "run"; event: WebhookEvent; threadId: string; runId: string; status: string; error: { code: string; message: string } | null };

function planOf(e: BusEvent): Plan | null {
  if (e.topic.startsWith("approval.")) {
    const { approvalId } = e.data as { approvalId: string };
    const event: WebhookEvent = e.topic === "approval.created" ? "approval.required" : "approval.decided";
    return { kind: "approval", event, approvalId, runId: e.runId };
  }
  if (e.topic === "task.completed" || e.topic === "task.failed" || e.topic === "task.blocked") {
    const chunk = (e.data as { chunk: { data: { runId: string; status: string; error: { code: string; message: string } | null } } }).chunk;
    const { status } = chunk.data;
    const event: WebhookEvent | null = status === "failed" ? "run.failed" : ["completed", "incomplete", "cancelled"].includes(status) ? "run.finished" : null;
    if (!event || !e.threadId) return null;
    const error = chunk.data.error ? { code: chunk.data.error.code, message: chunk.data.error.message.slice(0, 300) } : null;
    return { kind: "run", event, threadId: e.threadId, runId: chunk.data.runId, status, error: event === "run.failed" ? error : null };
  }
  return null;
}

/** The approval's outcome as webhooks say it (a consumed approval was approved). */
const outcomeOf = (status: string) => (status === "consumed" ? "approved" : status);

/** The workspace an event belongs to; null when its thread or approval is gone. */
async function workspaceOf(db: Db, plan: Plan): Promise<string | null> {
  const threadOf = plan.kind === "run" ? { id: plan.threadId } : { approvals: { some: { id: plan.approvalId } } };
  const thread = await db.thread.findFirst({ where: threadOf, select: { flow: { select: { workspaceId: true } } } });
  return thread?.flow.workspaceId ?? null;
}

/** The thread, workspace and `data` of an event, read from the database; null when gone. */
async function dataOf(db: Db, plan: Plan): Promise<{ workspaceId: string; data: WebhookData } | null> {
  const publicUrl = env().PUBLIC_URL;
  if (plan.kind === "run") {
    const thread = await db.thread.findUnique({ where: { id: plan.threadId }, select: { flow: { select: { workspaceId: true } } } });
    if (!thread) return null;
    const data: WebhookData = { thread_id: plan.threadId, run_id: plan.runId, status: plan.status, ...linkOf(`/threads/${plan.threadId}`, publicUrl) };
    if (plan.event === "run.failed") data.error = plan.error;
    return { workspaceId: thread.flow.workspaceId, data };
  }
  const a = await db.approval.findUnique({
    where: { id: plan.approvalId },
    select: { threadId: true, toolName: true, argsHash: true, status: true, decision: true, risk: true, expiresAt: true, thread: { select: { flow: { select: { workspaceId: true } } } } },
  });
  if (!a) return null;
  // The run that asked: the publisher's own run for approval.required (its card is not
  // stored yet); for a decision, made by an API request or by the run that resumes, the run
  // that stored the card.
  const asker = async () => (await prismaRunStore(db).events({ threadId: a.threadId, types: ["approval_required"], dataContains: plan.approvalId, take: 1 }))[0]?.runId ?? null;
  const runId = plan.event === "approval.required" ? (plan.runId ?? (await asker())) : ((await asker()) ?? plan.runId);
  const base = { thread_id: a.threadId, run_id: runId, approval_id: plan.approvalId, tool: a.toolName, args_hash: a.argsHash, ...linkOf(`/approvals/${plan.approvalId}`, publicUrl) };
  const data: WebhookData =
    plan.event === "approval.required"
      ? { ...base, status: "pending", risk: a.risk, expires_at: a.expiresAt.toISOString() }
      : { ...base, status: outcomeOf(a.status), decision: a.decision ?? (a.status === "expired" ? "expired" : "approve") };
  return { workspaceId: a.thread.flow.workspaceId, data };
}

/** How long a decision's transaction may take to commit before its event is dropped, and how often to look (ms). */
const COMMIT_WAIT_MS = 10_000;
const COMMIT_POLL_MS = 100;

/**
 * Waits until a decided approval's row says so. A decision is published from inside the
 * transaction that accepts its run (docs/durability.md#decisions): on PostgreSQL another
 * connection sees the row pending until that commits, and a transaction that rolls back
 * never decided anything, so its event must not become a webhook.
 * @returns false when the row is still pending after COMMIT_WAIT_MS (or is gone).
 */
async function decisionCommitted(db: Db, approvalId: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await db.approval.findUnique({ where: { id: approvalId }, select: { status: true } });
    if (!row) return false;
    if (row.status !== "pending") return true;
    if (Date.now() >= deadline) {
      log.debug({ approvalId }, "webhooks: a decision that never committed is not sent");
      return false;
    }
    await new Promise((r) => setTimeout(r, COMMIT_POLL_MS));
  }
}

/**
 * Records the deliveries of one bus event; an event no webhook listens to writes nothing, nor
 * does a decision whose transaction never commits (waited for up to `opts.commitWaitMs`,
 * default 10 s).
 * @returns how many deliveries were created (0 for an event already recorded).
 * @throws what the database throws, except the unique-key conflict of an event seen before.
 */
export async function recordWebhookEvent(db: Db, e: BusEvent, opts: { commitWaitMs?: number } = {}): Promise<number> {
  const plan = planOf(e);
  if (!plan) return 0;
  // A card decision publishes approval.decided, then approval.consumed when the tool runs; a
  // chat approval (pending -> consumed) publishes only the latter: one key, one delivery.
  const key = `${plan.event}:${plan.kind === "approval" ? plan.approvalId : plan.runId}`;
  // Cheap first: most workspaces have no webhook listening to most events.
  const workspaceId = await workspaceOf(db, plan);
  if (!workspaceId) return 0;
  const endpoints = await db.webhookEndpoint.findMany({ where: { workspaceId, enabled: true, events: { contains: `"${plan.event}"` } }, select: { id: true } });
  if (endpoints.length === 0) return 0;
  if (plan.kind === "approval" && plan.event === "approval.decided" && !(await decisionCommitted(db, plan.approvalId, opts.commitWaitMs ?? COMMIT_WAIT_MS))) return 0;
  const found = await dataOf(db, plan);
  if (!found) return 0;
  const payload: WebhookPayload = { id: `evt_${randomBytes(12).toString("base64url")}`, type: plan.event, created_at: new Date(e.at).toISOString(), workspace_id: found.workspaceId, data: found.data };
  const body = JSON.stringify(payload);
  let created = 0;
  for (const endpoint of endpoints) {
    try {
      await db.webhookDelivery.create({ data: { endpointId: endpoint.id, event: plan.event, eventKey: key, payload: body, nextAttemptAt: new Date() } });
      created += 1;
    } catch (err) {
      if (prismaErrorCode(err) !== "P2002") throw err;
    }
  }
  if (created > 0) wakeWebhookSender();
  return created;
}

const TOPICS = ["approval.created", "approval.decided", "approval.expired", "approval.consumed", "task.completed", "task.failed", "task.blocked"] as const;

/**
 * Subscribes the recorder to the bus, once per process (every server process records the
 * events that happen in it; only processes with background work send them: see
 * lib/webhooks/sender.ts). Failures are logged and never reach the run or the approval.
 * @returns the function that unsubscribes.
 */
export function installWebhookRecorder(db: Db): () => void {
  if (g.__phylacteryWebhookRecorder) return g.__phylacteryWebhookRecorder;
  const offs = TOPICS.map((topic) =>
    subscribe(topic, async (e) => {
      try {
        await recordWebhookEvent(db, e);
      } catch (err) {
        log.error({ err, topic: e.topic, threadId: e.threadId }, "webhooks: recording an event failed");
      }
    }),
  );
  g.__phylacteryWebhookRecorder = () => {
    for (const off of offs) off();
    g.__phylacteryWebhookRecorder = undefined;
  };
  return g.__phylacteryWebhookRecorder;
}
