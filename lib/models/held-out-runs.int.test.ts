import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryAssistant } from "../../templates/memory-assistant";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import type { RunChunk } from "../events/ui-parts";
import type { FlowDocument } from "../flow/schema";
import { reviewDraft } from "./brief-review";
import { briefOf } from "./structured-summary";

/**
 * Held-out tasks and documents (docs/runs.md): the default offline model in real runs, on
 * documents of tests/fixtures/documents/held-out/ that its rules were not written against,
 * with tasks worded differently from the ones in the issue that led to the rules. Each case
 * checks what a newcomer would: the answer does what was asked (count, audience, question),
 * an output file is written rather than read, a task nobody can do ends incomplete naming
 * what is missing, a refusal by configuration is not retried, and an answer to "How should
 * I proceed?" changes the plan.
 */

const DOCS = path.join(process.cwd(), "tests", "fixtures", "documents", "held-out");
const answerOf = (chunks: RunChunk[]) =>
  chunks
    .filter((c) => c.type === "text")
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");
const bullets = (text: string) => text.split("\n").filter((l) => /^\s*[-*]\s/.test(l));

describe("held-out tasks with the offline model", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  async function run(task: string, files: string[], doc?: FlowDocument): Promise<{ threadId: string; chunks: RunChunk[] }> {
    f = await engineFixture(doc);
    const threadId = await f.newThread(task);
    const dir = path.join(f.workspacesDir, threadId);
    mkdirSync(dir, { recursive: true });
    for (const file of files) copyFileSync(path.join(DOCS, file), path.join(dir, file));
    return { threadId, chunks: await collect(await f.prepare(threadId, { kind: "message", text: task })) };
  }
  const status = (chunks: RunChunk[]) => lastData(chunks, "data-run")?.data.status;
  const planTasks = (chunks: RunChunk[]) => lastData(chunks, "data-plan")?.data.steps.map((s) => s.task) ?? [];
  const approvalArgs = (chunks: RunChunk[]) => {
    const a = lastData(chunks, "data-approval")?.data;
    return a ? (JSON.parse(a.canonicalArgs) as { path: string; content: string }) : undefined;
  };

  it("H1 a requested count and audience: exactly two bullets for executives, no commands", async () => {
    const { chunks } = await run("Summarize harbor-readme.md for executives in two bullet points", ["harbor-readme.md"]);
    const answer = answerOf(chunks);
    expect(status(chunks)).toBe("completed");
    expect(bullets(answer)).toHaveLength(2);
    expect(answer).toMatch(/executives/i);
    expect(bullets(answer).join("\n")).not.toMatch(/`|docker|localhost|\.env/);
  });

  it("H2 a count in digits: exactly 4 bullets", async () => {
    const { chunks } = await run("Summarise retro-notes.md in 4 bullets", ["retro-notes.md"]);
    expect(bullets(answerOf(chunks))).toHaveLength(4);
  });

  it("H3 a 'when' question: the date with its source, not the file", async () => {
    const { chunks } = await run("When is the next quarterly review?", ["team-calendar.md"]);
    const answer = answerOf(chunks);
    expect(answer).toContain("9 July 2026");
    expect(answer).toContain("team-calendar.md");
    expect(answer).not.toContain("2 April 2026");
    expect(answer.length).toBeLessThan(400);
  });

  it("H4 a 'who' question: the person, with the source", async () => {
    const { chunks } = await run("Who will update the onboarding checklist?", ["retro-notes.md"]);
    const answer = answerOf(chunks);
    expect(answer).toContain("Amara");
    expect(answer).toContain("retro-notes.md");
    expect(answer.length).toBeLessThan(400);
  });

  it.each([
    ["H5", "Extract the action items of retro-notes.md into actions.md", "actions.md"],
    ["H6", "Résume retro-notes.md dans synthese.md", "synthese.md"],
    ["H7", "Resume retro-notes.md en resumen.md", "resumen.md"],
    ["H8", "Add a summary of retro-notes.md to HISTORY.md", "HISTORY.md"],
  ])("%s an output file is written, not read: %s", async (_id, task, out) => {
    const { chunks } = await run(task, ["retro-notes.md"]);
    expect(planTasks(chunks).some((t) => /^read\b/i.test(t) && t.includes(out))).toBe(false);
    expect(status(chunks)).toBe("awaiting_approval");
    const args = approvalArgs(chunks);
    expect(args?.path).toBe(out);
    expect(args?.content).toMatch(/Amara|Owen|Sofia/);
  });

  it.each([
    ["H9", "Send retro-notes.md to maria@example.org by email", /e-?mail/i],
    ["H10", "Post a summary of retro-notes.md to the team Slack channel", /slack/i],
    ["H11", "Evaluate 12 / 4 with JavaScript", /javascript/i],
  ])("%s a task no agent can do ends incomplete, naming what is missing: %s", async (_id, task, missing) => {
    const { chunks } = await run(task, ["retro-notes.md"]);
    expect(status(chunks)).toBe("incomplete");
    const answer = answerOf(chunks);
    expect(answer).toMatch(/Not done:/);
    expect(answer.slice(answer.indexOf("Not done:"))).toMatch(missing);
    expect(answer).not.toMatch(/^Done\b/);
  });

  it("H12 the same computation in a flow that has run_javascript is done", async () => {
    const { chunks } = await run("Evaluate 12 / 4 with JavaScript", [], memoryAssistant);
    expect(status(chunks)).toBe("completed");
    expect(answerOf(chunks)).toMatch(/\b3\b/);
  });

  it("H13 network off: one call, no retry, no question; the run ends saying what to do", async () => {
    const { chunks } = await run("Download https://example.org/report.csv", [], memoryAssistant);
    expect(status(chunks)).toBe("incomplete");
    const calls = chunks.filter((c) => c.type === "data-tool" && c.data.toolName === "http_request" && c.data.status === "proposed");
    expect(calls).toHaveLength(1);
    expect(answerOf(chunks)).not.toMatch(/How should I proceed/);
    expect(answerOf(chunks)).toMatch(/allowlist|Flow settings/i);
  });

  it("H14 an answer naming another file changes the plan", async () => {
    const { threadId, chunks } = await run("Summarize minutes-missing.md into recap.md", ["retro-notes.md"]);
    expect(status(chunks)).toBe("awaiting_input");
    const second = await collect(await f.prepare(threadId, { kind: "message", text: "use retro-notes.md instead" }));
    expect(status(second)).toBe("awaiting_approval");
    expect(approvalArgs(second)?.path).toBe("recap.md");
    expect(approvalArgs(second)?.content).toContain("retro-notes.md");
  });

  it("H15 'skip that step' ends the run incomplete instead of asking again", async () => {
    const { threadId, chunks } = await run("Summarize minutes-missing.md into recap.md", ["retro-notes.md"]);
    expect(status(chunks)).toBe("awaiting_input");
    const second = await collect(await f.prepare(threadId, { kind: "message", text: "skip that step" }));
    expect(status(second)).toBe("incomplete");
    expect(answerOf(second)).not.toMatch(/How should I proceed/);
  });

  it("H16 a listing's answer has no glitches", async () => {
    const { chunks } = await run("List the files in the workspace", ["retro-notes.md"]);
    const answer = answerOf(chunks);
    expect(answer).toContain("retro-notes.md");
    expect(answer).not.toMatch(/\(\.|:\)/);
  });

  it("H17 the Reviewer refuses a heading that mixes two unrelated products, and repeated items", () => {
    const sources = ["product-kestrel.md", "product-orchard.md"].map((file) => ({ file, text: readFileSync(path.join(DOCS, file), "utf8") }));
    const mixed = [
      "# Brief",
      "",
      "## Decisions",
      "",
      "- Kestrel 2.0 drops the Windows 7 installer. (source: product-kestrel.md)",
      "- Orchard sensors switch to LoRaWAN radios from the 2027 season. (source: product-orchard.md)",
      "",
    ].join("\n");
    expect(reviewDraft("brief.md", mixed, sources).approved).toBe(false);
    const repeated = [
      "# Kestrel",
      "",
      "- The free plan keeps three clients. (source: product-kestrel.md)",
      "- Kestrel 2.0 drops the Windows 7 installer. (source: product-kestrel.md)",
      "- The free plan keeps three clients. (source: product-kestrel.md)",
      "",
    ].join("\n");
    expect(reviewDraft("brief.md", repeated, sources.slice(0, 1)).approved).toBe(false);
  });

  it("H18 a brief of two unrelated products keeps them apart, and the Reviewer approves it", () => {
    const sources = ["product-kestrel.md", "product-orchard.md"].map((file) => ({ file, text: readFileSync(path.join(DOCS, file), "utf8") }));
    const brief = briefOf(sources);
    const review = reviewDraft("brief.md", brief, sources);
    expect(review.text).toMatch(/^Verdict: approved/);
  });
});
