import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { plannerReply } from "./offline-planner";
import { missingCapabilities, outputFiles, requestOf } from "./offline-request";
import { plannerPrompt, plannerSystem } from "./prompts";

/** What a task asks of the offline model (docs/architecture.md#models), and how an answer changes its plan (docs/runs.md). */
describe("offline request rules", () => {
  it.each([
    ["Write the action items of notes.md into todo.md", ["todo.md"]],
    ["Résume notes.md dans resume.md", ["resume.md"]],
    ["Resume notas.md en resumen.md", ["resumen.md"]],
    ["Add the changes of release-notes.md to CHANGELOG.md", ["CHANGELOG.md"]],
    ["Make a checklist in todo.md", ["todo.md"]],
    ["Find every TODO in notes.md", []],
    ["Compare a.md to b.md", []],
    ["Read notes.md", []],
  ])("%j writes %j", (task, out) => {
    expect(outputFiles(task, task.match(/[\w.-]+\.md/g) ?? [])).toEqual(out);
  });

  it.each([
    ["Summarize README.md for managers in three bullet points", { count: 3, audience: "managers" }],
    ["Summarise retro.md in 4 bullets", { count: 4 }],
    ["Résume notes.md pour les managers en trois points", { count: 3, audience: "les managers" }],
    ["Summarize notes.md for the engineering managers", { audience: "the engineering managers" }],
  ])("%j asks %j", (task, request) => {
    expect(requestOf(task)).toEqual(request);
  });

  it("names what no tool of the flow can do", () => {
    const files = new Set(["read_file", "write_file", "list_files"]);
    expect(missingCapabilities("Email the summary of notes.md to ines@example.com", files).map((m) => m.capability)).toEqual(["send email"]);
    expect(missingCapabilities("Compute 6 * 7 with JavaScript", files).map((m) => m.capability)).toEqual(["run JavaScript"]);
    expect(missingCapabilities("Compute 6 * 7 with JavaScript", new Set(["run_javascript"]))).toEqual([]);
    expect(missingCapabilities("Summarize notes.md into summary.md", files)).toEqual([]);
  });

  const system = plannerSystem({
    instructions: "",
    agents: [{ id: "assistant", name: "Assistant", instructions: "", tools: ["list_files", "read_file", "write_file"].map((name) => ({ name, description: name })) }],
  });
  const replan = (task: string, answer: string) => {
    const why = `Step 1 ("Read resume.md") failed after 3 tries: read_file resume.md failed: not found A new plan failed as well. How should I proceed?\nThe user answered: ${answer}`;
    const reply = plannerReply({ prompt: [] } as unknown as LanguageModelV4CallOptions, system, plannerPrompt(task, why), new Set(["create_plan"]));
    if (reply.kind !== "tool") throw new Error("no plan");
    return reply.input as { steps: { task: string }[]; skipped?: { task: string }[] };
  };

  it("the answer to 'How should I proceed?' changes the next plan", () => {
    const task = "Summarize notes.md and resume.md";
    expect(replan(task, "use release-notes.md instead").steps.map((s) => s.task)).toEqual(["Read notes.md", "Read release-notes.md", "Summarize notes.md and release-notes.md"]);
    expect(replan(task, "create it").steps.map((s) => s.task)).toEqual(["Read notes.md", "Write a summary of notes.md to resume.md"]);
    const skipped = replan(task, "skip that step");
    expect(skipped.steps.map((s) => s.task)).toEqual(["Read notes.md", "Summarize notes.md"]);
    expect(skipped.skipped?.map((s) => s.task)).toEqual(["Read resume.md"]);
    expect(replan(task, "try again").steps.map((s) => s.task)).toEqual(["Read notes.md", "Read resume.md", "Summarize notes.md and resume.md"]);
  });
});
