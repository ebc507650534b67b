import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildGraph } from "./graph";
import { fakeDeps, textTurn, toolTurn } from "./node-fixtures";

/**
 * The compiled graph end to end with a scripted model (docs/architecture.md#retries-limits-and-eviction): a step that keeps
 * failing is retried up to max_tries, the plan is made again once, then the user is asked;
 * the answer makes a new plan that completes. And the loop detector stops a repeating call.
 */
const promptText = (opts: LanguageModelV4CallOptions) => JSON.stringify(opts.prompt);

describe("compiled graph", () => {
  it("retries, re-plans once, asks the user, and plans again with the answer", async () => {
    let executorCalls = 0;
    let plannerCalls = 0;
    let answered = false;
    const deps = fakeDeps(async (opts: LanguageModelV4CallOptions) => {
      const text = promptText(opts);
      if (text.includes("[phylactery:planner]")) {
        plannerCalls += 1;
        answered = text.includes("The user answered");
        return toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read notes.md", expected_output: "", depends_on: [] }] }, `plan_${plannerCalls}`);
      }
      if (text.includes("[phylactery:executor]")) {
        executorCalls += 1;
        if (!answered) throw new Error("provider unavailable");
        return textTurn("read it");
      }
      return textTurn("Done.");
    });
    const graph = buildGraph(deps, new MemorySaver());
    const config = { configurable: { thread_id: "t1" }, recursionLimit: 200 };
    const first = await graph.invoke({ messages: [{ role: "user", content: "Summarize notes.md" }], thread_id: "t1", user_id: "u1", run_started_at: deps.clock.now }, config);
    expect(plannerCalls).toBe(2);
    expect(executorCalls).toBe(6);
    expect(first.awaiting_user_input).toBe(true);
    const snap = await graph.getState(config);
    const question = snap.tasks.flatMap((t) => t.interrupts)[0]?.value as { kind: string; question: string };
    expect(question.kind).toBe("question");
    expect(question.question).toMatch(/failed after 3 tries: model error: provider unavailable.*How should I proceed\?$/);

    const second = await graph.invoke(new Command({ resume: "The provider is back, try again." }), config);
    expect(plannerCalls).toBe(3);
    expect(second.plan?.status).toBe("completed");
    expect(second.final_answer).toBe("Done.");
    expect(second.awaiting_user_input).toBe(false);
  });

  it("the loop detector stops a run that repeats the same call with the same output", async () => {
    const deps = fakeDeps(async (opts: LanguageModelV4CallOptions) => {
      const text = promptText(opts);
      if (text.includes("[phylactery:planner]")) return toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read notes.md", expected_output: "", depends_on: [] }] });
      if (text.includes("[phylactery:executor]")) return toolTurn("read_file", { path: "notes.md" });
      return textTurn("Stopped.");
    });
    const graph = buildGraph(deps, new MemorySaver());
    const out = await graph.invoke(
      { messages: [{ role: "user", content: "Summarize notes.md" }], thread_id: "t2", user_id: "u1", run_started_at: deps.clock.now },
      { configurable: { thread_id: "t2" }, recursionLimit: 200 },
    );
    expect(deps.ran).toHaveLength(3);
    expect(out.error).toMatchObject({ code: "loop_detected" });
    expect(out.lifecycle).toBe("FAILED");
  });
});
