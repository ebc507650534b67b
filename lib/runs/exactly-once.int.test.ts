import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { replayMessages } from "./replay";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";
import type { RunChunk } from "../events/ui-parts";

/**
 * Exactly-once side effects (docs/durability.md "Side effects"). A crash is simulated where a
 * kill would land: an error thrown from inside a node escapes the graph, so the checkpoint
 * stays before that node, as after a SIGKILL; the thread and run rows are then left
 * "running", as a kill leaves them. The run then continues from its checkpoint.
 */
const crash = vi.hoisted(() => ({
  /** Where the next write_file call crashes: before it runs, after it ran, after its outcome was recorded. */
  at: null as null | "before_call" | "after_call" | "after_outcome" | "after_consume",
  /** write_file executions that reached the real tool. */
  writes: 0,
  /** False: the tool cannot observe its outcome (as an opaque remote call), so a person is asked. */
  observe: true,
}));

class Crash extends Error {}

vi.mock("../tools/gateway", async (original) => {
  const real = await original<typeof import("../tools/gateway")>();
  return {
    ...real,
    reconcileTool: async (...a: Parameters<typeof real.reconcileTool>) => (crash.observe ? real.reconcileTool(...a) : { kind: "ask" as const }),
    runTool: async (name: string, input: unknown, opts: Parameters<typeof real.runTool>[2]) => {
      if (name !== "write_file") return real.runTool(name, input, opts);
      if (crash.at === "before_call") {
        crash.at = null;
        throw new Crash("killed before the call");
      }
      crash.writes += 1;
      const res = await real.runTool(name, input, opts);
      if (crash.at === "after_call") {
        crash.at = null;
        throw new Crash("killed during the call");
      }
      return res;
    },
  };
});

vi.mock("../engine/tool-executions-prisma", async (original) => {
  const real = await original<typeof import("../engine/tool-executions-prisma")>();
  return {
    prismaToolExecutions: (db: Parameters<typeof real.prismaToolExecutions>[0]) => {
      const store = real.prismaToolExecutions(db);
      return {
        ...store,
        async finish(...a: Parameters<typeof store.finish>) {
          await store.finish(...a);
          if (crash.at === "after_outcome") {
            crash.at = null;
            throw new Crash("killed after the outcome was recorded");
          }
        },
      };
    },
  };
});

vi.mock("../approvals/service", async (original) => {
  const real = await original<typeof import("../approvals/service")>();
  return {
    ...real,
    consumeChallenge: async (...a: Parameters<typeof real.consumeChallenge>) => {
      const r = await real.consumeChallenge(...a);
      if (crash.at === "after_consume") {
        crash.at = null;
        throw new Crash("killed after the approval was consumed");
      }
      return r;
    },
  };
});

const TASK = "Summarize notes.md into summary.md";

describe("exactly-once side effects across a crash", () => {
  let f: EngineFixture;
  afterEach(async () => {
    crash.at = null;
    crash.writes = 0;
    crash.observe = true;
    await f?.cleanup();
  });

  /** Runs the task to its approval, approves it with the crash armed; answers the approval id. */
  async function approveAndCrash(at: NonNullable<typeof crash.at>): Promise<{ threadId: string; approvalId: string; crashed: RunChunk[] }> {
    const threadId = await f.newThread(TASK);
    const first = await collect(await f.prepare(threadId, { kind: "message", text: TASK }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval card");
    crash.at = at;
    const crashed = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token ?? "", argsHash: a.argsHash }));
    expect(crash.at).toBeNull();
    // What a kill leaves behind: the thread and the run still "running".
    await f.t.db.thread.update({ where: { id: threadId }, data: { status: "running" } });
    await f.t.db.run.updateMany({ where: { threadId }, data: { status: "running", endedAt: null } });
    return { threadId, approvalId: a.approvalId, crashed };
  }

  const count = (threadId: string, action: string) => f.t.db.auditEntry.count({ where: { threadId, action } });
  const summary = (threadId: string) => path.join(f.workspacesDir, threadId, "summary.md");

  it("killed after the write's outcome was recorded, before the checkpoint: continue does not write again, the step is done once", async () => {
    f = await engineFixture();
    const { threadId } = await approveAndCrash("after_outcome");
    expect(crash.writes).toBe(1);
    const rest = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(rest, "data-run")?.data.status).toBe("completed");
    expect(crash.writes).toBe(1);
    expect(await count(threadId, "tool_executed")).toBe(2); // the read and the write, once each
    expect(await count(threadId, "approval_consumed")).toBe(1);
    const steps = rest.filter((c) => c.type === "data-step" && c.data.event === "plan_step_completed");
    expect(new Set(steps.map((c) => (c.type === "data-step" ? c.data.id : ""))).size).toBe(steps.length);
    expect(await f.t.db.toolExecution.findMany({ where: { threadId }, select: { toolName: true, status: true, attempt: true } })).toEqual([
      { toolName: "write_file", status: "completed", attempt: 1 },
    ]);
  });

  it("killed after the approval was consumed, before the checkpoint: continue runs the approved write exactly once, with no second consumption", async () => {
    f = await engineFixture();
    const { threadId, approvalId } = await approveAndCrash("after_consume");
    expect(crash.writes).toBe(0);
    const consumedAt = (await f.t.db.approval.findUniqueOrThrow({ where: { id: approvalId } })).consumedAt;
    expect(consumedAt).not.toBeNull();
    const rest = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(rest, "data-run")?.data.status).toBe("completed");
    expect(crash.writes).toBe(1);
    expect(existsSync(summary(threadId))).toBe(true);
    expect((await f.t.db.approval.findUniqueOrThrow({ where: { id: approvalId } })).consumedAt).toEqual(consumedAt);
    expect(await count(threadId, "approval_consumed")).toBe(1);
    expect(await count(threadId, "approval_refused")).toBe(0);
  });

  it("killed during the write: the workspace shows it happened (same content hash), so nobody is asked, it is not run again, and the run completes", async () => {
    f = await engineFixture();
    const { threadId } = await approveAndCrash("after_call");
    expect(crash.writes).toBe(1);
    const rest = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(rest, "data-run")?.data.status).toBe("completed");
    expect(lastData(rest, "data-outcome")).toBeUndefined();
    expect(crash.writes).toBe(1);
    expect(await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } })).toMatchObject({ status: "completed", attempt: 1, outcome: "success", decidedById: null });
    expect(await count(threadId, "outcome_observed")).toBe(1);
    expect(await f.t.db.runEvent.count({ where: { threadId, type: "outcome_unknown" } })).toBe(0);
  });

  it("killed after the intent, before the write: the workspace shows it did not happen, so it runs again without asking, once", async () => {
    f = await engineFixture();
    const { threadId } = await approveAndCrash("before_call");
    expect(crash.writes).toBe(0);
    const rest = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(rest, "data-run")?.data.status).toBe("completed");
    expect(lastData(rest, "data-outcome")).toBeUndefined();
    expect(crash.writes).toBe(1);
    expect(existsSync(summary(threadId))).toBe(true);
    expect(await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } })).toMatchObject({ status: "completed", attempt: 2 });
    expect(await count(threadId, "outcome_retry")).toBe(1);
  });

  it("an outcome nobody can observe: It happened: continue records the confirmed outcome, runs nothing again, and the run completes", async () => {
    f = await engineFixture();
    crash.observe = false;
    const { threadId } = await approveAndCrash("after_call");
    const asked = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(asked, "data-run")?.data.status).toBe("awaiting_input");
    const row = await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } });
    const done = await collect(await f.prepare(threadId, { kind: "outcome", toolCallId: row.toolCallId, choice: "happened" }));
    expect(lastData(done, "data-run")?.data.status).toBe("completed");
    expect(lastData(done, "data-plan")?.data.steps.map((s) => s.status)).toEqual(["completed", "completed"]);
    expect(crash.writes).toBe(1);
    expect(await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } })).toMatchObject({ status: "completed", attempt: 1, outcome: "success", decidedById: f.userId });
    expect(await count(threadId, "outcome_happened")).toBe(1);
    const tool = done.filter((c) => c.type === "data-tool" && c.id === row.toolCallId).at(-1);
    expect(tool?.type === "data-tool" ? tool.data : null).toMatchObject({ status: "done" });
    expect(tool?.type === "data-tool" ? tool.data.output : "").toMatch(/^write_file summary\.md took effect: .+ confirmed it after the server stopped during the call/);
    await expect(f.prepare(threadId, { kind: "outcome", toolCallId: row.toolCallId, choice: "happened" })).rejects.toMatchObject({ status: 409 });
  });

  it("killed during the write: continue asks retry or skip, showing what is known; retry writes once more and the run completes", async () => {
    f = await engineFixture();
    crash.observe = false;
    const { threadId, approvalId } = await approveAndCrash("after_call");
    expect(crash.writes).toBe(1);
    const asked = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(asked, "data-run")?.data.status).toBe("awaiting_input");
    expect(crash.writes).toBe(1);
    const row = await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } });
    expect(row).toMatchObject({ toolName: "write_file", status: "started", attempt: 1, approvalId });
    const card = asked.filter((c) => c.type === "data-tool" && c.id === row.toolCallId).at(-1);
    expect(card?.type === "data-tool" ? card.data.output : "").toMatch(/^write_file summary\.md started at .+, but the server stopped before its result was recorded/);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("awaiting_input");

    // A continue is not a choice; an unknown call id is refused.
    await expect(f.prepare(threadId, { kind: "continue" })).rejects.toMatchObject({ status: 409 });
    await expect(f.prepare(threadId, { kind: "outcome", toolCallId: "call_nope", choice: "retry" })).rejects.toMatchObject({ status: 409, reason: "no_pending_outcome" });
    const done = await collect(await f.prepare(threadId, { kind: "outcome", toolCallId: row.toolCallId, choice: "retry" }));
    expect(lastData(done, "data-run")?.data.status).toBe("completed");
    expect(crash.writes).toBe(2);
    expect(await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } })).toMatchObject({ status: "completed", attempt: 2, decidedById: f.userId });
    expect(await count(threadId, "outcome_retry")).toBe(1);
    await expect(f.prepare(threadId, { kind: "outcome", toolCallId: row.toolCallId, choice: "retry" })).rejects.toMatchObject({ status: 409 });
  });

  it("killed during the write: the run streams and stores the outcome card (outcome_unknown), and a reload replays it", async () => {
    f = await engineFixture();
    crash.observe = false;
    const { threadId, approvalId } = await approveAndCrash("after_call");
    const asked = await collect(await f.prepare(threadId, { kind: "continue" }));
    const row = await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } });
    const card = lastData(asked, "data-outcome");
    expect(card?.id).toBe(row.toolCallId);
    expect(card?.data).toMatchObject({ toolCallId: row.toolCallId, tool: "write_file", argsHash: row.argsHash, approvalId, attempt: 1, startedAt: row.startedAt.toISOString(), status: "pending" });
    expect(card?.data.args).toMatchObject({ path: "summary.md" });
    expect(card?.data.description).toMatch(/^write_file summary\.md started at /);
    const stored = await f.t.db.runEvent.findMany({ where: { threadId, type: "outcome_unknown" } });
    expect(stored.map((e) => JSON.parse(e.data))).toEqual([card]);
    const events = await f.t.db.runEvent.findMany({ where: { threadId }, orderBy: { seq: "asc" }, select: { runId: true, seq: true, type: true, data: true } });
    const replayed = replayMessages(events)
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-outcome");
    expect(replayed).toEqual([{ type: "data-outcome", id: row.toolCallId, data: card?.data }]);
  });

  it("killed during the write: skip does not write again; the step is reported skipped and the run incomplete, saying why", async () => {
    f = await engineFixture();
    crash.observe = false;
    const { threadId } = await approveAndCrash("after_call");
    await collect(await f.prepare(threadId, { kind: "continue" }));
    const row = await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } });
    const done = await collect(await f.prepare(threadId, { kind: "outcome", toolCallId: row.toolCallId, choice: "skip" }));
    expect(crash.writes).toBe(1);
    expect(lastData(done, "data-run")?.data.status).toBe("incomplete");
    const plan = lastData(done, "data-plan")?.data;
    expect(plan?.steps.map((s) => s.status)).toEqual(["completed", "skipped"]);
    expect(plan?.steps[1]?.error).toMatch(/^write_file summary\.md was not done: the server stopped during the call, so whether it took effect is unknown, and .+ chose to skip it\.$/);
    const answer = done
      .filter((c) => c.type === "text")
      .map((c) => (c.type === "text" ? c.text : ""))
      .join("\n");
    expect(answer).toMatch(/was skipped: write_file summary\.md was not done/);
    expect(await count(threadId, "tool_skipped")).toBe(1);
  });

  it("killed after the intent, before the call, on a tool that cannot observe: the outcome is not guessed either; retry writes exactly once", async () => {
    f = await engineFixture();
    crash.observe = false;
    const { threadId } = await approveAndCrash("before_call");
    expect(crash.writes).toBe(0);
    await collect(await f.prepare(threadId, { kind: "continue" }));
    const row = await f.t.db.toolExecution.findFirstOrThrow({ where: { threadId } });
    expect(row.status).toBe("started");
    await collect(await f.prepare(threadId, { kind: "outcome", toolCallId: row.toolCallId, choice: "retry" }));
    expect(crash.writes).toBe(1);
    expect(existsSync(summary(threadId))).toBe(true);
  });
});
