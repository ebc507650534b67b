import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guidedSummary } from "../../templates/guided-summary";
import { memoryAssistant } from "../../templates/memory-assistant";
import type { RunChunk } from "../events/ui-parts";
import type { FlowDocument } from "../flow/schema";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * The default model through real runs (the engine, a real SQLite file, a real workspace
 * folder) on held-out documents copied into the thread's workspace before its first run:
 * the to-do task plans with the built-in tools and writes a checklist; in Guided summary the
 * person's answer sets the summary's audience and focus.
 */
describe("default model in real runs", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  /** A thread whose workspace holds these held-out documents (its flow's library is empty: engineFixture's `samples: false`). */
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
    f = await engineFixture(undefined, { samples: false });
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

  const answerOf = (chunks: RunChunk[]) =>
    chunks
      .filter((c) => c.type === "text")
      .map((c) => (c.type === "text" ? c.text : ""))
      .join("\n");
  const statusOf = (chunks: RunChunk[]) => lastData(chunks, "data-run")?.data.status;
  async function seeded(task: string, doc?: FlowDocument) {
    f = await engineFixture(doc);
    const threadId = await f.newThread(task);
    return { threadId, chunks: await collect(await f.prepare(threadId, { kind: "message", text: task })) };
  }

  it.each([
    ["Email the summary of notes.md to ines@example.com", /no agent of this flow can send email/],
    ["Compute 6 * 7 with JavaScript", /no agent of this flow can run JavaScript/],
  ])("the issue's %j ends incomplete, naming the missing capability, never 'Done'", async (task, missing) => {
    const { chunks } = await seeded(task);
    expect(statusOf(chunks)).toBe("incomplete");
    const answer = answerOf(chunks);
    expect(answer).toMatch(missing);
    expect(answer).not.toMatch(/^Done\b/);
    const steps = lastData(chunks, "data-plan")?.data.steps ?? [];
    expect(steps.filter((s) => s.status === "completed").every((s) => !/email|javascript/i.test(s.task))).toBe(true);
  });

  it("the issue's 'Compute 6 * 7 with JavaScript' in a flow with run_javascript answers 42", async () => {
    const { chunks } = await seeded("Compute 6 * 7 with JavaScript", memoryAssistant);
    expect(statusOf(chunks)).toBe("completed");
    expect(answerOf(chunks)).toMatch(/\b42\b/);
  });

  it.each([
    ["Write the action items of notes.md into todo.md", "todo.md"],
    ["Résume notes.md dans resume.md", "resume.md"],
    ["Add the changes of release-notes.md to CHANGELOG.md", "CHANGELOG.md"],
  ])("the issue's %j writes %s instead of reading it", async (task, out) => {
    const { chunks } = await seeded(task);
    expect(statusOf(chunks)).toBe("awaiting_approval");
    const steps = lastData(chunks, "data-plan")?.data.steps ?? [];
    expect(steps.some((s) => /^read\b/i.test(s.task) && s.task.includes(out))).toBe(false);
    const approval = lastData(chunks, "data-approval")?.data;
    expect((JSON.parse(approval?.canonicalArgs ?? "{}") as { path?: string }).path).toBe(out);
  });

  it("the issue's 'Fetch https://example.com' with the network off: one call, no retry, no re-plan, no question", async () => {
    const { chunks } = await seeded("Fetch https://example.com", memoryAssistant);
    expect(statusOf(chunks)).toBe("incomplete");
    expect(chunks.filter((c) => c.type === "data-tool" && c.data.status === "proposed")).toHaveLength(1);
    expect(chunks.filter((c) => c.type === "data-plan" && c.data.status === "planning")).toHaveLength(0);
    const answer = answerOf(chunks);
    expect(answer).toMatch(/refused by the flow's configuration: Network is off for this flow; add the host to the flow's network allowlist in Flow settings/);
    expect(answer).not.toMatch(/How should I proceed/);
  });

  it("an answer to 'How should I proceed?' changes the plan: 'skip it' ends the run incomplete, without asking again", async () => {
    const { threadId, chunks } = await seeded("Summarize missing.md into summary.md");
    expect(statusOf(chunks)).toBe("awaiting_input");
    const second = await collect(await f.prepare(threadId, { kind: "message", text: "skip it" }));
    expect(statusOf(second)).toBe("incomplete");
    const steps = lastData(second, "data-plan")?.data.steps ?? [];
    expect(steps.map((s) => s.status)).toEqual(["skipped", "skipped"]);
    expect(answerOf(second)).toMatch(/left out at the user's request/);
    expect(answerOf(second)).not.toMatch(/How should I proceed/);
  });

  it("the issue's 'Summarize README.md for managers in three bullet points': three bullets for managers, in the answer itself", async () => {
    const { chunks } = await seeded("Summarize README.md for managers in three bullet points");
    const answer = answerOf(chunks);
    expect(answer.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(3);
    expect(answer.split("\n")[0]).toBe("# Summary of README.md for managers");
  });

  it("the issue's 'When is the next planning meeting?': the date with its source, not the whole file", async () => {
    const { chunks } = await seeded("When is the next planning meeting?");
    expect(answerOf(chunks)).toBe("The next planning meeting is on Tuesday 17 March 2026 at 10:00. (source: notes.md)");
  });

  it("the issue's glitches: no '(. has 3 entries:)' and no 'characters from notes.md:)'", async () => {
    const listed = answerOf((await seeded("List the files in the workspace")).chunks);
    expect(listed).toMatch(/^Done: List the files in the workspace \(the workspace has 3 entries\)\.\n\nThe workspace has 3 entries:\n- README\.md/);
    expect(listed).not.toMatch(/\(\. has|:\)|^\. has/m);
    await f.cleanup();
    const read = answerOf((await seeded("Read notes.md")).chunks);
    expect(read).toMatch(/\(Read 1869 characters from notes\.md\)/);
  });
});
