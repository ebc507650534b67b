import { expect } from "vitest";
import { type Client, lastPart, readStream } from "./client";

/** The task the approval tests run: read notes.md (allowed), then write summary.md (needs approval). */
export const TASK = "Summarize notes.md into summary.md";

/** The approval card of a run, as the stream's `data-approval` part carries it. */
export interface PendingApproval {
  approvalId: string;
  token: string;
  argsHash: string;
  canonicalArgs: string;
}

/**
 * Creates a thread on `flowId` with {@link TASK} and streams it until it waits for the
 * write's approval (201, 200, and the run ends `awaiting_approval`).
 * @throws Error when the run reached no approval.
 */
export async function startRun(c: Client, flowId: string): Promise<{ threadId: string; approval: PendingApproval }> {
  const created = await c.post("/api/threads", { flowId, task: TASK });
  expect(created.status).toBe(201);
  const { threadId } = (await created.json()) as { threadId: string };
  const res = await c.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: TASK } });
  expect(res.status).toBe(200);
  const chunks = await readStream(res);
  const approval = lastPart(chunks, "data-approval") as PendingApproval | undefined;
  if (!approval) throw new Error(`no approval in ${JSON.stringify(chunks.map((x) => x.type))}`);
  expect(lastPart(chunks, "data-run")?.status).toBe("awaiting_approval");
  return { threadId, approval };
}

/** The last sentence of {@link longTask}: it names the output file. */
export const LONG_TASK_END = "Write the result into steering-update.md";

/**
 * A request of exactly `chars` chars, as a new user writes one: context first, and the output
 * file named only at its very end ({@link LONG_TASK_END}), so a task cut anywhere loses it.
 */
export function longTask(chars: number): string {
  const context =
    "Read notes.md and prepare an update for the steering group that covers the status of each workstream, the decisions taken since the last meeting, the owners and their dates, and the risks that are still open. ";
  const head = "Summarize notes.md for the steering group. ";
  const tail = ` ${LONG_TASK_END}`;
  const body = context.repeat(Math.ceil(chars / context.length)).slice(0, chars - head.length - tail.length);
  return `${head}${body.replace(/\s$/, ".")}${tail}`;
}
