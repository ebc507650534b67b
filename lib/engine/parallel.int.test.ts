import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { streamable, textTurn, toolTurn } from "./node-fixtures";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * Steps whose dependencies are done run side by side (LangGraph `Send`), on the
 * real services: two independent writes each stop at the RiskGate at once; each approval
 * card resumes exactly its own interrupt; the tools run once each; the dependent step runs
 * after both.
 */
describe("parallel steps", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("two writes wait for approval together; each card resumes its own branch; then the last step runs", async () => {
    const model = streamable(
      new MockLanguageModelV4({
        doGenerate: async (opts: LanguageModelV4CallOptions) => {
          const text = JSON.stringify(opts.prompt);
          if (text.includes("[phylactery:planner]")) {
            return toolTurn("create_plan", {
              steps: [
                { agent_id: "assistant", task: "Write a.md", expected_output: "", depends_on: [] },
                { agent_id: "assistant", task: "Write b.md", expected_output: "", depends_on: [] },
                { agent_id: "assistant", task: "List the files", expected_output: "", depends_on: [0, 1] },
              ],
            });
          }
          if (text.includes("[phylactery:executor]")) {
            if (opts.prompt.at(-1)?.role === "tool") return textTurn("done");
            const stepTask = /<step-task>\\n(.*?)\\n<\/step-task>/.exec(text)?.[1];
            if (stepTask === "Write a.md") return toolTurn("write_file", { path: "a.md", content: "A" });
            if (stepTask === "Write b.md") return toolTurn("write_file", { path: "b.md", content: "B" });
            return toolTurn("list_files", { path: "." });
          }
          return textTurn("All done.");
        },
      }),
    );
    f = await engineFixture(undefined, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const threadId = await f.newThread("Write a.md and b.md");
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Write a.md and b.md" }));
    // Both steps started before either finished, and both wait for approval at once.
    const steps = first.filter((c) => c.type === "data-step").map((c) => (c.type === "data-step" ? `${c.data.index}:${c.data.event}` : ""));
    expect(steps.slice(0, 2)).toEqual(["0:plan_step_started", "1:plan_step_started"]);
    const approvals = first.filter((c) => c.type === "data-approval").map((c) => (c.type === "data-approval" ? c.data : null));
    expect(approvals.map((a) => JSON.parse(a?.canonicalArgs ?? "{}").path).sort()).toEqual(["a.md", "b.md"]);
    expect(lastData(first, "data-run")?.data.status).toBe("awaiting_approval");

    const [a, b] = approvals.sort((x, y) => (x?.canonicalArgs ?? "").localeCompare(y?.canonicalArgs ?? ""));
    if (!a || !b) throw new Error("approvals");
    const ws = path.join(f.workspacesDir, threadId);
    // Approving one: the other still waits (LangGraph resumes a superstep when all its interrupts are answered).
    const afterA = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token }));
    expect(lastData(afterA, "data-run")?.data.status).toBe("awaiting_approval");
    const afterB = await collect(await f.prepare(threadId, { kind: "decision", approvalId: b.approvalId, decision: "approve", token: b.token }));
    expect(lastData(afterB, "data-run")?.data.status).toBe("completed");
    expect(readFileSync(path.join(ws, "a.md"), "utf8")).toBe("A");
    expect(readFileSync(path.join(ws, "b.md"), "utf8")).toBe("B");
    expect(lastData(afterB, "data-plan")?.data.steps.map((s) => s.status)).toEqual(["completed", "completed", "completed"]);
    expect(await f.t.db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "write_file" } })).toBe(2);
    expect(await f.t.db.approval.count({ where: { threadId, status: "consumed" } })).toBe(2);
    expect(existsSync(path.join(ws, "c.md"))).toBe(false);
  });
});
