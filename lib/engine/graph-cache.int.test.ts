import { afterEach, describe, expect, it } from "vitest";
import { flowGraph, flowGraphStats } from "./graph-cache";
import { readRunState } from "../runs/read-state";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import { historyGraph } from "./time-travel";

/**
 * One way to build a graph (docs/architecture.md#one-compiled-graph-per-flow-version): a flow
 * version is compiled once per database and shared by runs, state reads and history reads.
 */
describe("compiled graphs cached per flow version", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("a run that waits on an approval, its approval and the run that follows build the version's graph once", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Write out.md with content: hi");
    const before = flowGraphStats.built;
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Write out.md with content: hi", agentId: "assistant" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", decision: "approve", approvalId: a.approvalId, token: a.token, argsHash: a.argsHash }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    expect(flowGraphStats.built - before).toBe(1);
    const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId }, include: { flowVersion: true } });
    expect(historyGraph(f.t.db, thread.flowVersion.document).graph).toBe(flowGraph(f.t.db, thread.flowVersion.document).graph);
    expect(flowGraphStats.built - before).toBe(1);
  });

  it("reading a thread's state needs no run services: the read-only services refuse any call", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Write out.md with content: hi");
    await collect(await f.prepare(threadId, { kind: "message", text: "Write out.md with content: hi", agentId: "assistant" }));
    const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId }, include: { flow: true, flowVersion: true } });
    const { ctx, snapshot } = await readRunState(f.t.db, thread);
    expect(snapshot.tasks.flatMap((t) => t.interrupts)).toHaveLength(1);
    expect(() => ctx.deps.resolveModel("offline")).toThrow(/only reads checkpoints/);
    expect(() => ctx.deps.tools.run("read_file", {}, threadId)).toThrow(/only reads checkpoints/);
  });
});
