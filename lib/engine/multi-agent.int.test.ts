import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { researchBrief } from "../../templates/research-brief";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * The "Research brief" template on the offline model: the planner assigns steps by
 * capability to three agents, the supervisor hands off to each, the writer's write waits
 * for approval, and the reviewer reviews the written brief.
 */
describe("multi-agent template", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("researcher reads both sources, writer writes the brief after approval, reviewer reviews it", async () => {
    f = await engineFixture(researchBrief);
    const task = "Write a brief of notes.md and release-notes.md into brief.md";
    const threadId = await f.newThread(task);
    const first = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    const plan = lastData(first, "data-plan")?.data;
    expect(plan?.steps.map((s) => [s.task, s.agentName])).toEqual([
      ["Read notes.md", "Researcher"],
      ["Read release-notes.md", "Researcher"],
      ["Write a summary of notes.md and release-notes.md to brief.md", "Writer"],
      ["Review brief.md", "Reviewer"],
    ]);
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");

    const handoffs = [...first, ...second].filter((c) => c.type === "data-handoff").map((c) => (c.type === "data-handoff" ? c.data.agentName : ""));
    expect(handoffs).toEqual(["Researcher", "Researcher", "Writer", "Reviewer"]);
    const brief = readFileSync(path.join(f.workspacesDir, threadId, "brief.md"), "utf8");
    expect(brief).toMatch(/^# Summary of notes\.md and release-notes\.md/);
    const review = second.filter((c) => c.type === "data-step").at(-1);
    const verdict = review?.type === "data-step" ? review.data.result : null;
    expect(verdict).toMatch(/^Verdict: approved\n/);
    expect(verdict).toMatch(/^Review of brief\.md: .*Approved/m);
  });
});
