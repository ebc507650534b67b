import { afterEach, describe, expect, it } from "vitest";
import { forkThread } from "../runs/fork-thread";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import { listCheckpoints, stateAt } from "../engine/time-travel";
import type { RunChunk } from "../events/ui-parts";
import { KEPT_WRITE_CHANNELS, NULL_TASK_ID, pruneThread } from "./prune-checkpoints";

/**
 * Pruning a finished thread's checkpoints (docs/storage.md "What pruning keeps") on the real
 * graph, a SQLite file and the offline model: the writes of past checkpoints go, every
 * checkpoint and blob stays, time travel reads the same history, and fork, continue and a
 * new message still work; threads that wait or run are left whole.
 */
describe("pruneThread", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  /** Every checkpoint-table row of a thread, by key, with its stored size. */
  async function rows(threadId: string) {
    const db = f.t.db;
    const [checkpoints, blobs, writes] = await Promise.all([
      db.checkpoint.findMany({ where: { threadId }, orderBy: { checkpointId: "asc" } }),
      db.checkpointBlob.findMany({ where: { threadId }, orderBy: [{ channel: "asc" }, { version: "asc" }] }),
      db.checkpointWrite.findMany({ where: { threadId }, orderBy: [{ checkpointId: "asc" }, { taskId: "asc" }, { idx: "asc" }] }),
    ]);
    return {
      checkpoints: checkpoints.map((c) => `${c.checkpointId}:${c.checkpoint.length}`),
      blobs: blobs.map((b) => `${b.channel}@${b.version}:${b.value.length}`),
      writes: writes.map((w) => ({ checkpointId: w.checkpointId, taskId: w.taskId, channel: w.channel, key: `${w.checkpointId}/${w.taskId}/${w.idx}` })),
      events: await db.runEvent.count({ where: { threadId } }),
      audit: await db.auditEntry.count({ where: { threadId } }),
    };
  }

  /** Everything time travel shows of a thread: the list, and the state at each checkpoint. */
  async function timeTravel(threadId: string) {
    const { checkpoints } = await listCheckpoints(f.t.db, f.userId, threadId);
    const states = [];
    for (const c of checkpoints) states.push(await stateAt(f.t.db, f.userId, threadId, c.checkpointId));
    return { checkpoints, states };
  }

  /** A thread that read, waited for approval of its write, was approved and completed. */
  async function approvedThread(): Promise<string> {
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("the run did not ask for approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token, argsHash: a.argsHash }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    return threadId;
  }

  it("drops the writes of past checkpoints but keeps every checkpoint, blob, interrupt, audit entry and run event; time travel reads the same history; a second call deletes nothing", async () => {
    f = await engineFixture();
    const threadId = await approvedThread();
    const before = await rows(threadId);
    const shown = await timeTravel(threadId);
    const latest = before.checkpoints.at(-1)?.split(":")[0];
    expect(before.writes.length).toBeGreaterThan(50);
    expect(before.writes.some((w) => w.channel === "__interrupt__")).toBe(true);

    const result = await pruneThread(f.t.db, threadId);
    const after = await rows(threadId);
    const kept = (w: { checkpointId: string; taskId: string; channel: string }) => w.checkpointId === latest || KEPT_WRITE_CHANNELS.includes(w.channel) || w.taskId === NULL_TASK_ID;
    expect(after.writes).toEqual(before.writes.filter(kept));
    expect(result).toEqual({ pruned: true, writesDeleted: before.writes.length - after.writes.length });
    expect(after.writes.length).toBeLessThan(before.writes.length / 5);
    expect(after.writes.map((w) => w.channel)).toContain("__interrupt__");
    expect({ ...after, writes: [] }).toEqual({ ...before, writes: [] });

    // The same list, the same state at every checkpoint (plan, values, "Waiting for…" interrupts).
    const again = await timeTravel(threadId);
    expect(again).toEqual(shown);
    expect(again.states.some((s) => s.interrupts.length > 0)).toBe(true);

    expect(await pruneThread(f.t.db, threadId)).toEqual({ pruned: true, writesDeleted: 0 });
    expect(await rows(threadId)).toEqual(after);
  });

  it("after pruning, a fork from a past checkpoint continues to the end, and a new message on the thread runs from its latest checkpoint", async () => {
    f = await engineFixture();
    const threadId = await approvedThread();
    expect((await pruneThread(f.t.db, threadId)).pruned).toBe(true);

    const history = (await listCheckpoints(f.t.db, f.userId, threadId)).checkpoints;
    // The oldest checkpoint from which the Executor runs: the first step in progress, nothing read yet.
    const mid = history.filter((c) => c.next.includes("executor")).at(-1);
    if (!mid) throw new Error("no checkpoint before the executor");
    const fork = await forkThread(f.t.db, f.userId, threadId, mid.checkpointId, { workspacesDir: f.workspacesDir });
    expect(fork.status).toBe("running");
    const cont = await collect(await f.prepare(fork.threadId, { kind: "continue" }));
    // The fork re-runs the read and proposes the write again, to be approved in the fork.
    expect(cont.some((c) => c.type === "data-tool" && c.data.toolName === "read_file" && c.data.status === "done")).toBe(true);
    const asked = lastData(cont, "data-approval")?.data;
    expect(asked?.toolName).toBe("write_file");
    if (!asked) return;
    const approved = await collect(await f.prepare(fork.threadId, { kind: "decision", approvalId: asked.approvalId, decision: "approve", token: asked.token, argsHash: asked.argsHash }));
    expect(lastData(approved, "data-run")?.data.status).toBe("completed");

    const next = await collect(await f.prepare(threadId, { kind: "message", text: "Read README.md and tell me what it says" }));
    expect(lastData(next, "data-run")?.data.status).toBe("completed");
    expect(next.some((c) => c.type === "data-tool" && c.data.toolName === "read_file" && c.data.status === "done")).toBe(true);
    const grown = (await listCheckpoints(f.t.db, f.userId, threadId)).checkpoints;
    expect(grown.length).toBeGreaterThan(history.length);
    expect(grown.slice(-history.length).map((c) => c.checkpointId)).toEqual(history.map((c) => c.checkpointId));
    // The new run's past writes are pruned in turn.
    expect((await pruneThread(f.t.db, threadId)).pruned).toBe(true);
  });

  it("leaves a thread awaiting approval whole, and its approval then resumes it", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("the run did not ask for approval");
    const before = await rows(threadId);

    expect(await pruneThread(f.t.db, threadId)).toEqual({ pruned: false, skipped: "not_finished", status: "awaiting_approval" });
    expect(await rows(threadId)).toEqual(before);
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token, argsHash: a.argsHash }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
  });

  it("leaves a running thread whole (status running, or a run not ended under a finished status), and the run goes on", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Read notes.md and tell me what it says");
    const run = (await f.prepare(threadId, { kind: "message", text: "Read notes.md and tell me what it says" })).stream();
    const seen: RunChunk[] = [];
    // Part way through (the plan exists, the step has started), the run held between two chunks.
    for (let r = await run.next(); !r.done; r = await run.next()) {
      seen.push(r.value);
      if (r.value.type === "data-tool") break;
    }
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("running");
    const before = await rows(threadId);
    expect(before.writes.length).toBeGreaterThan(0);
    expect(await pruneThread(f.t.db, threadId)).toEqual({ pruned: false, skipped: "not_finished", status: "running" });
    expect((await rows(threadId)).writes).toEqual(expect.arrayContaining(before.writes));

    // A run row still open under a status that says finished (a stale status): still refused.
    await f.t.db.thread.update({ where: { id: threadId }, data: { status: "completed" } });
    expect(await pruneThread(f.t.db, threadId)).toEqual({ pruned: false, skipped: "run_open", status: "completed" });
    await f.t.db.thread.update({ where: { id: threadId }, data: { status: "running" } });
    expect((await rows(threadId)).writes).toEqual(expect.arrayContaining(before.writes));

    for (let r = await run.next(); !r.done; r = await run.next()) seen.push(r.value);
    expect(lastData(seen, "data-run")?.data.status).toBe("completed");
    expect(await pruneThread(f.t.db, "no-such-thread")).toEqual({ pruned: false, skipped: "thread_not_found" });
  });
});
