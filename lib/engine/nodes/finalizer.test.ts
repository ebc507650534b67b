import { Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { structuredError } from "../../errors";
import { GraphState } from "../state";
import { baseState, fakeDeps, gotoOf, plan, recorder, step, textTurn, updateOf } from "./fake-deps";
import { finalizerNode } from "./finalizer";

/** Finalizer (docs/architecture.md#nodes): the answer to the user, or the question the run waits on. */

const promptOf = (deps: ReturnType<typeof fakeDeps>, i = 0) => JSON.stringify(deps.model.doGenerateCalls[i]?.prompt);

describe("finalizerNode", () => {
  it("a conversation is answered with the conversation prompt and the user's message -> END", async () => {
    const deps = fakeDeps([textTurn(" Hello! ")]);
    const { config, chunks } = recorder();
    const cmd = await finalizerNode(deps)(baseState({ intent: "conversation", messages: [{ role: "user", content: "hello there" }] }), config as never);
    expect(gotoOf(cmd)).toBe(END);
    expect(updateOf(cmd)).toMatchObject({
      final_answer: "Hello!",
      messages: [{ role: "assistant", content: "Hello!" }],
      lifecycle: "COMPLETED",
      current_agent: null,
      token_usage: { input_tokens: 10, output_tokens: 5 },
    });
    expect(promptOf(deps)).toContain("[phylactery:conversation]");
    expect(promptOf(deps)).toContain("hello there");
    expect(promptOf(deps)).not.toContain("[phylactery:finalizer]");
    expect(chunks).toEqual([
      { type: "text-delta", id: "final-1", node: "finalizer", delta: "Hello!" },
      { type: "text", id: "final-1", text: "Hello!" },
    ]);
  });

  it('streams the answer word by word as live deltas, then emits the finished text once (docs/runs.md "Streaming")', async () => {
    const deps = fakeDeps([textTurn("  Hello there, how can I help?  ")]);
    const { config, chunks } = recorder();
    await finalizerNode(deps)(baseState({ intent: "conversation", messages: [{ role: "user", content: "hi" }] }), config as never);
    const deltas = chunks.filter((c) => (c.type as string) === "text-delta").map((c) => (c as unknown as { delta: string }).delta);
    // One delta per word; together they are the trimmed answer, never a trailing space.
    expect(deltas).toEqual(["Hello", " there,", " how", " can", " I", " help?"]);
    expect(chunks.filter((c) => c.type === "text")).toEqual([{ type: "text", id: "final-1", text: "Hello there, how can I help?" }]);
    expect(chunks.at(-1)?.type).toBe("text");
  });

  it("a conversation after a finished task still gets the conversation prompt, not a plan summary", async () => {
    const deps = fakeDeps([textTurn("You're welcome!")]);
    const done = plan([step(0, { status: "completed", result: "NOTES-TEXT" })], { status: "completed" });
    const cmd = await finalizerNode(deps)(baseState({ intent: "conversation", plan: done, messages: [{ role: "user", content: "thanks!" }] }));
    expect(promptOf(deps)).toContain("[phylactery:conversation]");
    expect(promptOf(deps)).not.toContain("NOTES-TEXT");
    expect(updateOf(cmd)).toMatchObject({ final_answer: "You're welcome!", lifecycle: "COMPLETED" });
  });

  it("a completed plan: the finalizer prompt with each step's status and result; COMPLETED", async () => {
    const deps = fakeDeps([textTurn("Summary written.")]);
    const p = plan([step(0, { status: "completed", task: "Read notes.md", result: "NOTES-TEXT" }), step(1, { status: "completed", task: "Write summary.md", result: "wrote 12 chars" })], {
      status: "completed",
    });
    const cmd = await finalizerNode(deps)(baseState({ intent: "task", plan: p }));
    expect(updateOf(cmd)).toMatchObject({ final_answer: "Summary written.", messages: [{ role: "assistant", content: "Summary written." }], lifecycle: "COMPLETED" });
    const prompt = promptOf(deps);
    expect(prompt).toContain("[phylactery:finalizer]");
    expect(prompt).toContain("Summarize notes.md into summary.md");
    expect(prompt).toContain('status=\\"completed\\" task=\\"Read notes.md\\"');
    expect(prompt).toContain("NOTES-TEXT");
    expect(prompt).not.toContain("<note>");
  });

  it("an incomplete plan: the model writes only about the steps that were done; the run's own report lists what was not done and why", async () => {
    const deps = fakeDeps([textTurn("Read notes.md.")]);
    const p = plan(
      [
        step(0, { status: "completed", task: "Read notes.md", result: "NOTES-TEXT" }),
        step(1, { status: "rejected", task: "Write summary.md", error: "write_file summary.md was not done: rejected by Ana (not now)." }),
        step(2, { status: "skipped", task: "Review", error: "it needs step 2, which was rejected." }),
      ],
      { status: "incomplete" },
    );
    const cmd = await finalizerNode(deps)(baseState({ intent: "task", plan: p }));
    const answer = updateOf(cmd).final_answer as string;
    expect(updateOf(cmd).lifecycle).toBe("COMPLETED");
    expect(answer).toBe(
      'Read notes.md.\n\nNot done:\n- Step 2 "Write summary.md" was rejected: write_file summary.md was not done: rejected by Ana (not now).\n- Step 3 "Review" was skipped: it needs step 2, which was rejected.',
    );
    expect(promptOf(deps)).toContain("NOTES-TEXT");
    expect(promptOf(deps)).not.toContain("Write summary.md");
  });

  it("nothing done: no model call, the answer says so and why; a model's claim cannot enter it", async () => {
    const deps = fakeDeps([textTurn("Deleted release-notes.md.")]);
    const p = plan([step(0, { status: "blocked", task: "Delete release-notes.md", error: "delete_file release-notes.md was not done: blocked by policy (File safety #4)." })], {
      status: "incomplete",
    });
    const cmd = await finalizerNode(deps)(baseState({ intent: "task", plan: p }));
    const answer = updateOf(cmd).final_answer as string;
    expect(answer).toMatch(/^Nothing was done\.\n\nNot done:\n- Step 1 "Delete release-notes\.md" was blocked: delete_file release-notes\.md was not done: blocked by policy/);
    expect(answer).not.toContain("Deleted");
    expect(deps.model.doGenerateCalls).toHaveLength(0);
  });

  it("a structured error ends FAILED and the answer says why the run stopped", async () => {
    const deps = fakeDeps([textTurn("Stopped.")]);
    const error = structuredError("limit_exceeded", "The run stopped: it reached the flow's limit of 50 iterations.");
    const p = plan([step(0, { status: "completed", result: "R" }), step(1, { status: "in_progress" })], { status: "failed", failure_reason: "other reason" });
    const cmd = await finalizerNode(deps)(baseState({ intent: "task", plan: p, error }));
    expect(updateOf(cmd).lifecycle).toBe("FAILED");
    expect(updateOf(cmd).final_answer).toContain("limit of 50 iterations");
    expect(updateOf(cmd).final_answer).not.toContain("other reason");
  });

  it("a model error still ends the run with an explanatory answer", async () => {
    const deps = fakeDeps(() => {
      throw new Error("provider down");
    });
    const cmd = await finalizerNode(deps)(baseState({ intent: "task", plan: plan([step(0, { status: "completed", result: "r" })], { status: "completed" }) }));
    expect(gotoOf(cmd)).toBe(END);
    expect(updateOf(cmd).final_answer).toContain("provider down");
  });
  it("a conversation after a failed task ends COMPLETED", async () => {
    const deps = fakeDeps([textTurn("Hi!")]);
    const failed = plan([step(0, { status: "failed" })], { status: "failed", failure_reason: "The user rejected write_file: no" });
    const cmd = await finalizerNode(deps)(baseState({ intent: "conversation", plan: failed, messages: [{ role: "user", content: "hello there" }] }));
    expect(promptOf(deps)).toContain("[phylactery:conversation]");
    expect(updateOf(cmd).lifecycle).toBe("COMPLETED");
  });

  it("a question from the Supervisor waits as an interrupt; the answer goes to the Planner", async () => {
    const deps = fakeDeps();
    const graph = new StateGraph(GraphState)
      .addNode("finalizer", finalizerNode(deps), { ends: [END, "planner"] })
      .addNode("planner", () => ({ lifecycle: "PLAN_CHECK" as const }))
      .addEdge(START, "finalizer")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "q" } };
    await graph.invoke({ awaiting_user_input: true, question: "How should I proceed?", replans: 1 }, config);
    expect((await graph.getState(config)).tasks[0]?.interrupts[0]?.value).toEqual({ kind: "question", question: "How should I proceed?" });
    expect(deps.model.doGenerateCalls).toHaveLength(0);
    const out = await graph.invoke(new Command({ resume: "use release-notes.md" }), config);
    expect(out).toMatchObject({ awaiting_user_input: false, question: null, replans: 0, replan_reason: "How should I proceed?\nThe user answered: use release-notes.md" });
    expect(out.messages).toEqual([
      { role: "assistant", content: "How should I proceed?" },
      { role: "user", content: "use release-notes.md" },
    ]);
  });
});
