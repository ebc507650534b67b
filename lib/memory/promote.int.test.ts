import { afterEach, describe, expect, it } from "vitest";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import { subscribe } from "../events/bus";
import { acceptFact } from "./long-term";
import { PROMOTED_FACT_CHARS, promote, SUMMARY_CHARS, summarize } from "./promote";
import { retrieve } from "./retrieve";

/** promote(task) and summarize(task) (docs/architecture.md#memory) on a real finished thread. */
describe("promote and summarize", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  async function finishedThread(): Promise<string> {
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    return threadId;
  }

  it("promote proposes the facts of the steps (not their bookkeeping) with provenance and tags, skips known ones, and publishes memory.promoted", async () => {
    f = await engineFixture();
    const threadId = await finishedThread();
    const workspaceId = (await f.t.db.flow.findUniqueOrThrow({ where: { id: f.flowId } })).workspaceId;
    const completed = await f.t.db.runEvent.count({ where: { threadId, type: "plan_step_completed" } });
    expect(completed).toBe(2);
    const events: unknown[] = [];
    const stop = subscribe(
      "memory.promoted",
      (e) => {
        events.push(e.data);
      },
      { threadId },
    );
    let facts: Awaited<ReturnType<typeof promote>>;
    try {
      facts = await promote(f.t.db, { threadId, auto: false, userId: f.userId });
    } finally {
      stop();
    }
    // The read step's decisions and dates; nothing from the write step ("Wrote N bytes to …").
    expect(facts.map((x) => x.content)).toEqual([
      "notes.md: The team agreed that version 0.2 ships on Friday 24 April 2026 with approvals as the headline feature.",
      "notes.md: Approval tokens are signed with HMAC-SHA256 and bound to the thread, user and tool arguments.",
      "notes.md: Rui will deliver the first mock-ups of the policy node by Friday 13 March.",
    ]);
    const readStep = await f.t.db.runEvent.findMany({ where: { threadId, type: "plan_step_completed" }, orderBy: { seq: "asc" } });
    const readStepId = (JSON.parse(readStep[0]?.data ?? "{}") as { data?: { id?: string; task?: string } }).data;
    expect(readStepId?.task).toBe("Read notes.md");
    for (const fact of facts) {
      expect(fact).toMatchObject({ workspaceId, origin: "promoted", status: "proposed", tags: ["promoted", "assistant"], createdById: f.userId, source: { threadId, stepId: readStepId?.id } });
      expect(fact.content.length).toBeLessThanOrEqual(PROMOTED_FACT_CHARS);
      expect(fact.content).not.toMatch(/bytes|characters from|^Read |failed/);
    }
    expect(events).toEqual([{ factIds: facts.map((x) => x.id), accepted: false }]);
    // Proposed facts wait for a user: retrieve does not see them until one is accepted.
    const query = facts[0]?.content ?? "";
    expect((await retrieve(f.t.db, { workspaceId, threadId, query, agentRole: "step_executor" })).facts).toEqual([]);
    await acceptFact(f.t.db, { factId: facts[0]?.id ?? "", userId: f.userId });
    expect((await retrieve(f.t.db, { workspaceId, threadId, query, agentRole: "step_executor" })).facts[0]?.id).toBe(facts[0]?.id);
    // Promoting again finds nothing new.
    expect(await promote(f.t.db, { threadId, auto: true, userId: f.userId })).toEqual([]);
  });

  it("auto-promote accepts the facts at once", async () => {
    f = await engineFixture();
    const threadId = await finishedThread();
    const facts = await promote(f.t.db, { threadId, auto: true, userId: null });
    expect(facts.length).toBeGreaterThan(0);
    expect(facts.every((x) => x.status === "accepted" && x.createdById === null)).toBe(true);
  });

  it("summarize writes a deterministic summary of the task, the steps and the answer", async () => {
    f = await engineFixture();
    const threadId = await finishedThread();
    const now = Date.UTC(2026, 0, 2, 3, 4, 5);
    const summary = await summarize(f.t.db, { threadId, now });
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_CHARS);
    const lines = summary.split("\n");
    expect(lines[0]).toBe("Task: Summarize notes.md into summary.md");
    expect(lines[1]).toBe("Steps:");
    expect(lines.filter((l) => l.startsWith("- "))).toHaveLength(2);
    expect(lines.find((l) => l.startsWith("- Read notes.md (Assistant): "))).toBeTruthy();
    expect(lines.at(-1)).toMatch(/^Answer: .*summary\.md/);
    const row = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
    expect(row.summary).toBe(summary);
    expect(row.summarizedAt?.getTime()).toBe(now);
    expect(await summarize(f.t.db, { threadId, now })).toBe(summary);
    await expect(summarize(f.t.db, { threadId: "missing" })).rejects.toMatchObject({ status: 404 });
  });
});
