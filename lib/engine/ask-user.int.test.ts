import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { streamable, textTurn, toolTurn } from "./node-fixtures";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * Retries on the real services: a failing step is retried, re-planned once, then
 * the run asks the user and waits (an interrupt, status awaiting_input); the user's next
 * message is the answer, which plans again and finishes.
 */
describe("asking the user", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("the question waits as an interrupt and the next message answers it", async () => {
    let healthy = false;
    const model = streamable(
      new MockLanguageModelV4({
        doGenerate: async (opts: LanguageModelV4CallOptions) => {
          const text = JSON.stringify(opts.prompt);
          if (text.includes("[phylactery:planner]")) {
            healthy = text.includes("The user answered");
            return toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read notes.md", expected_output: "", depends_on: [] }] });
          }
          if (text.includes("[phylactery:executor]")) {
            if (!healthy) throw new Error("provider unavailable");
            return textTurn("read it");
          }
          return textTurn("Done after your answer.");
        },
      }),
    );
    f = await engineFixture(undefined, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const threadId = await f.newThread("Summarize notes.md");
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md" }));
    expect(lastData(first, "data-run")?.data.status).toBe("awaiting_input");
    const question = first.filter((c) => c.type === "text").at(-1);
    expect(question?.type === "text" && question.text).toMatch(/How should I proceed\?$/);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("awaiting_input");

    const second = await collect(await f.prepare(threadId, { kind: "message", text: "The provider is back, try again." }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    expect(lastData(second, "data-plan")?.data.status).toBe("completed");
    expect(second.some((c) => c.type === "text" && c.text === "Done after your answer.")).toBe(true);
  });
});
