import { existsSync, readFileSync } from "node:fs";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureWorkspace } from "../tools/workspace";
import { memoryAssistant } from "../../templates/memory-assistant";
import { streamable, textTurn, toolTurn } from "./node-fixtures";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import type { RunChunk } from "../events/ui-parts";

const answerOf = (chunks: RunChunk[]) =>
  chunks
    .filter((c) => c.type === "text")
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");

/**
 * A run's report is the truth (docs/runs.md "Status vocabulary"): with the default offline
 * model and the Workspace assistant, a blocked action, a failed read and a rejection are
 * each reported as what they were, in the status and in the answer.
 */
describe("truthful runs", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("a delete the policy blocks: no retry, the run ends incomplete, the answer says it was blocked and by which rule, the file is still there", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Delete release-notes.md");
    await ensureWorkspace(f.workspacesDir, threadId);
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Delete release-notes.md" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("incomplete");
    const plan = lastData(chunks, "data-plan")?.data;
    expect(plan?.status).toBe("incomplete");
    expect(plan?.steps.map((s) => [s.status, s.tries])).toEqual([["blocked", 1]]);
    const tools = chunks.filter((c) => c.type === "data-tool" && c.data.toolName === "delete_file" && c.data.status === "proposed");
    expect(tools).toHaveLength(1);
    const answer = answerOf(chunks);
    expect(answer).toMatch(/^Nothing was done\.\n\nNot done:\n- Step 1 "[^"]*" was blocked: delete_file release-notes\.md was not done: blocked by policy \(File safety #\d/);
    expect(answer).not.toMatch(/\bDeleted\b/);
    // The library's file (the thread's workspace never had one) is still there.
    expect(existsSync(path.join(f.libraryDir, "release-notes.md"))).toBe(true);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("incomplete");
    expect((await f.t.db.run.findFirstOrThrow({ where: { threadId } })).status).toBe("incomplete");
  });

  it("a read of a missing file is a failed try: retried, re-planned, then the user is asked; nothing is written and no approval asks to write the error", async () => {
    f = await engineFixture();
    const task = "Summarize missing.md into summary.md";
    const threadId = await f.newThread(task);
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("awaiting_input");
    expect(chunks.some((c) => c.type === "data-approval")).toBe(false);
    const steps = chunks.filter((c) => c.type === "data-step").map((c) => (c.type === "data-step" ? c.data : null));
    expect(steps.some((s) => s?.status === "completed" && /missing\.md/.test(s.task))).toBe(false);
    const failed = steps.filter((s) => s?.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.error).toMatch(/^read_file missing\.md failed: /);
    expect(answerOf(chunks)).toMatch(/failed after \d+ tries: read_file missing\.md failed/);
    expect(answerOf(chunks)).toMatch(/How should I proceed\?/);
    expect(existsSync(path.join(f.workspacesDir, threadId, "summary.md"))).toBe(false);
  });

  it("a rejected write: the read stays done, the write is reported rejected by name with the reason, and nothing is written", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "reject", comment: "wrong audience" }));
    const plan = lastData(second, "data-plan")?.data;
    expect(plan?.steps.map((s) => s.status)).toContain("rejected");
    expect(plan?.steps.some((s) => s.status === "completed")).toBe(true);
    expect(answerOf(second)).toMatch(/was rejected: write_file summary\.md was not done: rejected by .+ \(wrong audience\)\./);
    expect(readFileSync(path.join(f.libraryDir, "notes.md"), "utf8").length).toBeGreaterThan(0);
    expect(existsSync(path.join(f.workspacesDir, threadId, "summary.md"))).toBe(false);
  });

  /** A scripted (non-offline) model: the planner's and the executors' turns, and a finalizer that claims success. */
  function scripted(planner: unknown, executor: (opts: LanguageModelV4CallOptions) => ReturnType<typeof textTurn>) {
    return streamable(
      new MockLanguageModelV4({
        doGenerate: async (opts: LanguageModelV4CallOptions) => {
          const text = JSON.stringify(opts.prompt);
          if (text.includes("[phylactery:planner]")) return toolTurn("create_plan", planner);
          if (text.includes("[phylactery:executor]")) return executor(opts);
          return textTurn("Done: everything you asked.");
        },
      }),
    );
  }

  it("any model: a capability the plan says no agent has ends the run incomplete, naming it; the rest is done", async () => {
    const model = scripted(
      {
        steps: [{ agent_id: "assistant", task: "Read notes.md", expected_output: "The text.", depends_on: [] }],
        missing_capabilities: [{ capability: "send email", reason: "no tool of this flow sends email" }],
      },
      () => textTurn("Read notes.md: planning meeting notes."),
    );
    f = await engineFixture(undefined, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const task = "Email the summary of notes.md to ines@example.com";
    const threadId = await f.newThread(task);
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("incomplete");
    expect(lastData(chunks, "data-plan")?.data.steps.map((s) => [s.task, s.status])).toEqual([
      ["Read notes.md", "completed"],
      ["Send email", "blocked"],
    ]);
    expect(answerOf(chunks)).toMatch(/Not done:\n- Step 2 "Send email" was blocked: no agent of this flow can send email \(no tool of this flow sends email\)\./);
    expect((await f.t.db.run.findFirstOrThrow({ where: { threadId } })).status).toBe("incomplete");
  });

  it("any model: an executor that reports its step impossible gets a blocked step, not a green one, and no retry", async () => {
    let tries = 0;
    const model = scripted({ steps: [{ agent_id: "assistant", task: "Compute 6 * 7 with JavaScript", expected_output: "42", depends_on: [] }] }, (opts) => {
      tries++;
      expect(opts.tools?.some((t) => t.name === "report_impossible")).toBe(true);
      return toolTurn("report_impossible", { reason: "no tool of mine can run JavaScript" });
    });
    f = await engineFixture(undefined, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const task = "Compute 6 * 7 with JavaScript";
    const threadId = await f.newThread(task);
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    expect(tries).toBe(1);
    expect(lastData(chunks, "data-run")?.data.status).toBe("incomplete");
    const step = lastData(chunks, "data-plan")?.data.steps[0];
    expect([step?.status, step?.error]).toEqual(["blocked", "Assistant cannot do this step: no tool of mine can run JavaScript"]);
    expect(chunks.some((c) => c.type === "data-tool")).toBe(false);
    expect(answerOf(chunks)).toMatch(/^Nothing was done\.\n\nNot done:\n- Step 1 "Compute 6 \* 7 with JavaScript" was blocked: Assistant cannot do this step/);
  });

  it("any model: a call refused by the flow's configuration (network off) is not retried, re-planned or asked about", async () => {
    let plans = 0;
    const model = streamable(
      new MockLanguageModelV4({
        doGenerate: async (opts: LanguageModelV4CallOptions) => {
          const text = JSON.stringify(opts.prompt);
          if (text.includes("[phylactery:planner]")) {
            plans++;
            return toolTurn("create_plan", { steps: [{ agent_id: "helper", task: "Fetch https://example.com", expected_output: "The page.", depends_on: [] }] });
          }
          if (text.includes("[phylactery:executor]")) {
            // A stubborn model would call again after the refusal.
            return toolTurn("http_request", { url: "https://example.com", method: "GET" });
          }
          return textTurn("Fetched.");
        },
      }),
    );
    f = await engineFixture(memoryAssistant, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const threadId = await f.newThread("Fetch https://example.com");
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Fetch https://example.com" }));
    expect(plans).toBe(1);
    expect(chunks.filter((c) => c.type === "data-tool" && c.data.status === "proposed")).toHaveLength(1);
    expect(lastData(chunks, "data-run")?.data.status).toBe("incomplete");
    const step = lastData(chunks, "data-plan")?.data.steps[0];
    expect(step?.status).toBe("blocked");
    expect(step?.error).toMatch(
      /^http_request https:\/\/example\.com was refused by the flow's configuration: Network is off for this flow; add the host to the flow's network allowlist in Flow settings\.$/,
    );
    expect(answerOf(chunks)).not.toMatch(/How should I proceed/);
  });
});
