import { describe, expect, it } from "vitest";
import { newBranch } from "./branch";
import { assistantAgent, step } from "./node-fixtures";
import type { PlanStep, StepBranch } from "./state";
import { joinBranch, type JoinContext, MAX_REVISIONS, readySteps, unreachableSteps } from "./step-rules";

const branch = (overrides: Partial<StepBranch> = {}): StepBranch => ({ ...newBranch("s0", assistantAgent), ...overrides });
const done = (text: string, extra: Partial<NonNullable<StepBranch["output"]>> = {}, more: Partial<StepBranch> = {}) =>
  branch({ phase: "done", output: { step_id: "s0", text, ok: false, ...extra }, ...more });
const ctx = (overrides: Partial<JoinContext> = {}): JoinContext => ({ steps: [], isHuman: () => false, humanAnswer: null, redispatchAwaiting: false, stoppingError: false, ...overrides });
const running = (overrides: Partial<PlanStep> = {}) => step(0, { status: "in_progress", tries: 1, max_tries: 3, ...overrides });

describe("joinBranch (the Supervisor's join of a step and its branch, no graph)", () => {
  it("a step without a branch starts one; a Human input step asks, or takes the answer", () => {
    expect(joinBranch(running(), undefined, ctx())).toEqual({ kind: "start" });
    expect(joinBranch(running(), undefined, ctx({ isHuman: () => true }))).toEqual({ kind: "ask" });
    expect(joinBranch(running(), undefined, ctx({ isHuman: () => true, humanAnswer: { step_id: "s0", text: "blue" } }))).toEqual({ kind: "answered", text: "blue" });
    expect(joinBranch(running(), undefined, ctx({ isHuman: () => true, humanAnswer: { step_id: "s9", text: "blue" } }))).toEqual({ kind: "ask" });
  });

  it("a branch still working is resumed, sent again to its approval after a new message, or left alone", () => {
    expect(joinBranch(running(), branch({ phase: "returned" }), ctx())).toEqual({ kind: "continue" });
    expect(joinBranch(running(), branch({ phase: "awaiting_approval" }), ctx())).toEqual({ kind: "wait" });
    expect(joinBranch(running(), branch({ phase: "awaiting_approval" }), ctx({ redispatchAwaiting: true }))).toEqual({ kind: "redispatch" });
    expect(joinBranch(running(), branch({ phase: "running" }), ctx())).toEqual({ kind: "wait" });
  });

  it("a settled branch completes, ends final, fails the plan, retries, or runs out of tries", () => {
    expect(joinBranch(running(), done("ok", { ok: true }), ctx())).toEqual({ kind: "complete" });
    expect(joinBranch(running(), done("no", { final: "blocked" }), ctx())).toEqual({ kind: "final", status: "blocked" });
    expect(joinBranch(running(), done("boom"), ctx({ stoppingError: true }))).toEqual({ kind: "fail" });
    const dismissed = done("dismissed", {}, { approval_outcome: { decision: "ignored" } as StepBranch["approval_outcome"] });
    expect(joinBranch(running(), dismissed, ctx())).toEqual({ kind: "fail" });
    expect(joinBranch(running({ tries: 1 }), done("flaky"), ctx())).toEqual({ kind: "retry" });
    expect(joinBranch(running({ tries: 3 }), done("flaky"), ctx())).toEqual({ kind: "exhausted" });
  });

  it("the very failure of the previous try is not retried", () => {
    const failedAgain = done(
      "ENOENT",
      {},
      {
        last_tool_result: { status: "error" } as StepBranch["last_tool_result"],
        tool_history: [{ tool: "read_file", args_hash: "a", output_hash: "o" }] as StepBranch["tool_history"],
      },
    );
    expect(joinBranch(running({ tries: 1, failed_call: "read_file:a:o" }), failedAgain, ctx())).toEqual({ kind: "exhausted" });
    expect(joinBranch(running({ tries: 1, failed_call: "read_file:b:o" }), failedAgain, ctx())).toEqual({ kind: "retry" });
  });

  it("a review asking for changes sends the reviewed step back once, then fails", () => {
    const work = step(0, { status: "completed" });
    const review = step(1, { status: "in_progress", tries: 1, depends_on: ["s0"] });
    const verdict = done("Verdict: changes needed\n- Unsupported: the second claim", { ok: true });
    const first = joinBranch(review, verdict, ctx({ steps: [work, review] }));
    expect(first).toEqual({ kind: "revise", reviewed: work });
    const again = joinBranch({ ...review, revisions: MAX_REVISIONS }, verdict, ctx({ steps: [work, review] }));
    expect(again.kind).toBe("revisions_exhausted");
    // Nothing to send back (no completed agent step before it): the verdict is only reported.
    expect(joinBranch(review, verdict, ctx({ steps: [review] }))).toEqual({ kind: "complete" });
  });
});

describe("readySteps and unreachableSteps (no graph)", () => {
  it("a pending step is ready once every step it depends on completed", () => {
    const steps = [step(0, { status: "completed" }), step(1, { depends_on: ["s0"] }), step(2, { depends_on: ["s0", "s1"] }), step(3)];
    expect(readySteps(steps).map((s) => s.id)).toEqual(["s1", "s3"]);
  });

  it("a step that needs a step that will never complete is unreachable, transitively, without changing the steps", () => {
    const steps = [step(0, { status: "blocked" }), step(1, { depends_on: ["s0"] }), step(2, { depends_on: ["s1"] }), step(3)];
    const lost = unreachableSteps(steps);
    expect(lost.map((l) => [l.step.id, l.lost.id, l.lostStatus])).toEqual([
      ["s1", "s0", "blocked"],
      ["s2", "s1", "skipped"],
    ]);
    expect(steps.map((s) => s.status)).toEqual(["blocked", "pending", "pending", "pending"]);
  });
});
