import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guidedSummary } from "../../templates/guided-summary";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * The "Guided summary" template on the offline model: a Human input step asks
 * its question first and the run waits (awaiting_input, an interrupt); the answer becomes
 * the step's result, which the later steps see; a Router route sends "list" tasks straight
 * to the Writer with a capability_match handoff and no Planner.
 */
describe("human input and router nodes", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("asks the Human input's question, records the answer as the step's result, then works with it", async () => {
    f = await engineFixture(guidedSummary);
    const task = "Summarize notes.md into summary.md";
    const threadId = await f.newThread(task);
    const first = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(lastData(first, "data-run")?.data.status).toBe("awaiting_input");
    const plan = lastData(first, "data-plan")?.data;
    expect(plan?.steps.map((s) => [s.task, s.agentName, s.status])).toEqual([
      ["Who is this summary for, and what should it focus on?", "Audience", "in_progress"],
      ["Read notes.md", "Writer", "pending"],
      ["Write a summary of notes.md to summary.md", "Writer", "pending"],
    ]);
    const question = first.filter((c) => c.type === "text").at(-1);
    expect(question?.type === "text" && question.text).toBe("Who is this summary for, and what should it focus on?");
    const asked = first.find((c) => c.type === "data-handoff");
    expect(asked?.type === "data-handoff" && [asked.data.to, asked.data.reason]).toEqual(["audience", "clarification"]);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("awaiting_input");

    const second = await collect(await f.prepare(threadId, { kind: "message", text: "For the release team, focus on dates." }));
    const steps = lastData(second, "data-plan")?.data.steps ?? [];
    expect(steps[0]).toMatchObject({ status: "completed", result: "For the release team, focus on dates." });
    expect(lastData(second, "data-run")?.data.status).toBe("awaiting_approval");
    const approval = lastData(second, "data-approval")?.data;
    if (!approval) throw new Error("no approval");
    const third = await collect(await f.prepare(threadId, { kind: "decision", approvalId: approval.approvalId, decision: "approve", token: approval.token }));
    expect(lastData(third, "data-run")?.data.status).toBe("completed");
    expect(readFileSync(path.join(f.workspacesDir, threadId, "summary.md"), "utf8")).toMatch(/^# Summary of notes\.md/);
  });

  it("a matching route skips the question and the Planner", async () => {
    f = await engineFixture(guidedSummary);
    const task = "list the files please";
    const threadId = await f.newThread(task);
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    const plan = lastData(chunks, "data-plan")?.data;
    expect(plan?.steps.map((s) => [s.agentName, s.status])).toEqual([["Writer", "completed"]]);
    const handoffs = chunks.flatMap((c) => (c.type === "data-handoff" ? [[c.data.from, c.data.to, c.data.reason]] : []));
    expect(handoffs).toEqual([
      ["router", "writer", "capability_match"],
      ["supervisor", "writer", "plan_step"],
    ]);
    const tools = chunks.flatMap((c) => (c.type === "data-tool" ? [[c.data.toolName, c.data.agentId, c.data.status]] : []));
    expect(tools.at(-1)).toEqual(["list_files", "writer", "done"]);
    expect(tools.every(([, agent]) => agent === "writer")).toBe(true);
  });
});
