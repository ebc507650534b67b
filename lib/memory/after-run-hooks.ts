import "server-only";
import type { Db } from "../db/client";
import { subscribe } from "../events/bus";
import { FlowDocument } from "../flow/schema";
import { promote, summarize } from "./promote";

const g = globalThis as { __phylacteryMemoryHooks?: () => void };

/**
 * After a run completes (bus topic `task.completed`), writes the thread's summary and
 * proposes facts from it (docs/architecture.md#memory: summarize and promote), accepting them at once when the
 * flow's memory setting `autoPromote` is on. Installed once per process; failures are
 * reported to `onError` and never reach the run. They run in the process that executed the
 * run (its worker), while the run still holds the thread's lease, so the next run of the
 * thread starts after them. Memory subscribes to the bus here; it never imports the run service.
 * @returns the function that uninstalls the hook.
 */
export function installMemoryHooks(db: Db, onError: (err: unknown, threadId: string) => void = () => {}): () => void {
  if (g.__phylacteryMemoryHooks) return g.__phylacteryMemoryHooks;
  const off = subscribe("task.completed", async (event) => {
    const threadId = event.threadId;
    if (!threadId) return;
    try {
      const thread = await db.thread.findUnique({ where: { id: threadId }, select: { userId: true, flowVersion: { select: { document: true } } } });
      if (!thread) return;
      const memory = FlowDocument.parse(JSON.parse(thread.flowVersion.document)).settings.memory;
      if (!memory.enabled) return;
      await summarize(db, { threadId });
      await promote(db, { threadId, auto: memory.autoPromote, userId: memory.autoPromote ? thread.userId : null });
    } catch (err) {
      onError(err, threadId);
    }
  });
  g.__phylacteryMemoryHooks = () => {
    off();
    g.__phylacteryMemoryHooks = undefined;
  };
  return g.__phylacteryMemoryHooks;
}
