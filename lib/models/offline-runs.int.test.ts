import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guidedSummary } from "../../templates/guided-summary";
import { collect, type EngineFixture, engineFixture, lastData } from "../engine/test-helpers";

/**
 * The default model through real runs (the engine, a real SQLite file, a real workspace
 * folder) on held-out documents copied into the thread's workspace before its first run:
 * the to-do task plans with the built-in tools and writes a checklist; in Guided summary the
 * person's answer sets the summary's audience and focus.
 */
describe("default model in real runs", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  /** A thread whose workspace holds these held-out documents (and not the seeded files). */
  async function threadWith(task: string, files: Record<string, string>): Promise<string> {
    const threadId = await f.newThread(task);
    const dir = path.join(f.workspacesDir, threadId);
    for (const [to, from] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
      copyFileSync(path.join(process.cwd(), "tests", "fixtures", "documents", from), path.join(dir, to));
    }
    return threadId;
  }

  it("finds every TODO: lists, reads each file, and the approved write is a checklist of them", async () => {
    f = await engineFixture();
    const task = "Find every TODO in the workspace and make a checklist in todo.md";
    const threadId = await threadWith(task, { "launch-plan.md": "launch-plan.md", "scripts/deploy.sh": "deploy.sh" });
    const first = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(lastData(first, "data-plan")?.data.steps.map((s) => s.task)).toEqual([
      "List the files in the workspace",
      "Collect the TODO lines of the listed files, except todo.md",
      "Write a checklist of the TODO lines to todo.md",
    ]);
    const tools = first.flatMap((c) => (c.type === "data-tool" && c.data.status === "done" ? [[c.data.toolName, (c.data.args as { path?: string }).path]] : []));
    expect(tools).toEqual([
      ["list_files", "."],
      ["list_files", "scripts"],
      ["read_file", "launch-plan.md"],
      ["read_file", "scripts/deploy.sh"],
    ]);
    const approval = lastData(first, "data-approval")?.data;
    if (!approval) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: approval.approvalId, decision: "approve", token: approval.token }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    const checklist = readFileSync(path.join(f.workspacesDir, threadId, "todo.md"), "utf8");
    expect(checklist.split("\n").filter((l) => l.startsWith("- [ ] "))).toEqual([
      "- [ ] Rewrite the billing FAQ for the new plans (launch-plan.md, line 8)",
      "- [ ] Add screenshots to the onboarding guide (launch-plan.md, line 9)",
      "- [ ] ask legal whether the refund policy page needs a review. (launch-plan.md, line 11)",
      "- [ ] Search uses the same index as the app. FIXME: the index misses articles with emoji in the title. (launch-plan.md, line 15)",
      "- [ ] fail when the sitemap is missing (scripts/deploy.sh, line 6)",
      "- [ ] FIXME hard-coded path (scripts/deploy.sh, line 7)",
    ]);
    const answer = second.filter((c) => c.type === "text").at(-1);
    expect(answer?.type === "text" && answer.text).toContain("The checklist has 6 items.");
  });

  it("Guided summary: the answer names the audience and puts the deadlines first", async () => {
    f = await engineFixture(guidedSummary);
    const task = "Summarize ops-sync-notes.md into summary.md";
    const threadId = await threadWith(task, { "ops-sync-notes.md": "ops-sync-notes.md" });
    const first = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(lastData(first, "data-run")?.data.status).toBe("awaiting_input");
    const second = await collect(await f.prepare(threadId, { kind: "message", text: "for the engineering managers; focus on deadlines" }));
    const approval = lastData(second, "data-approval")?.data;
    if (!approval) throw new Error("no approval");
    const content = String((JSON.parse(approval.canonicalArgs) as { content: string }).content);
    expect(content.split("\n")[0]).toBe("# Summary of ops-sync-notes.md for the engineering managers");
    expect(content.split("\n").find((l) => l.startsWith("## "))).toBe("## Deadlines");
    const deadlines = content.slice(content.indexOf("## Deadlines"), content.indexOf("## Overview"));
    expect(deadlines.indexOf("due 19 May")).toBeLessThan(deadlines.indexOf("due 15 June"));
    for (const owner of ["Jonas Berg", "Mei Chen", "Dario Rossi", "Priya Raman"]) expect(deadlines).toContain(owner);
  });
});
