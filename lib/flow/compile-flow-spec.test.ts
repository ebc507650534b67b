import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { classifyIntent } from "../engine/intent";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { compileFlowSpec } from "./compile";
import type { FlowDocument } from "./schema";

/** The flow compiler's reading of a document (docs/architecture.md#flows-and-compilation). */
const registry = { known: (n: string) => ["list_files", "read_file", "write_file", "delete_file", "rehydrate"].includes(n), sideEffect: (n: string) => n === "write_file" || n === "delete_file" };

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return isAppError(err) ? `${err.reason}: ${err.message}` : String(err);
  }
  return "no error";
}

describe("compileFlowSpec", () => {
  it("binds tools to agents by edges and reads supervisor, limits and mode", () => {
    const spec = compileFlowSpec(workspaceAssistant, registry);
    expect(spec.agents).toHaveLength(1);
    expect(spec.agents[0]).toMatchObject({ id: "assistant", name: "Assistant", maxTries: 3, tools: ["list_files", "read_file", "write_file", "delete_file", "rehydrate"] });
    expect(spec.supervisor.name).toBe("Supervisor");
    expect(spec.limits).toEqual({ maxIterations: 50, timeoutMs: 300_000 });
    expect(spec.mode).toBe("autonomous");
  });

  it("decides by the first matching rule, and side-effect tools no rule covers need approval", () => {
    const spec = compileFlowSpec(workspaceAssistant, registry);
    expect(["list_files", "read_file", "write_file", "delete_file"].map((t) => spec.decide(t, "{}").decision)).toEqual(["ALLOW", "ALLOW", "AUTH_REQUIRED", "BLOCKED"]);
    const noPolicy: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "policy") };
    const bare = compileFlowSpec(noPolicy, registry);
    expect(bare.decide("write_file", "{}")).toMatchObject({ decision: "AUTH_REQUIRED", rule: null, policy: null });
    expect(bare.decide("read_file", "{}")).toMatchObject({ decision: "ALLOW", rule: null, policy: null });
  });

  it("a tool edge removed on the canvas removes the tool from the agent", () => {
    const doc: FlowDocument = { ...workspaceAssistant, edges: workspaceAssistant.edges.filter((e) => e.id !== "e-delete") };
    expect(compileFlowSpec(doc, registry).agents[0]?.tools).not.toContain("delete_file");
  });

  it("refuses flows that cannot run, naming the node", () => {
    const unknown: FlowDocument = {
      ...workspaceAssistant,
      nodes: workspaceAssistant.nodes.map((n) => (n.id === "t-read" ? { ...n, type: "tool", data: { tool: "read_mind" } } : n)) as FlowDocument["nodes"],
    };
    expect(reason(() => compileFlowSpec(unknown, registry))).toBe('flow_not_runnable: Tool node "t-read" uses unknown tool "read_mind".');
    const noAgent: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "agent") };
    expect(reason(() => compileFlowSpec(noAgent, registry))).toMatch(/^flow_not_runnable: The flow has no Agent node/);
    const noStart: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "start") };
    expect(reason(() => compileFlowSpec(noStart, registry))).toMatch(/^flow_not_runnable: The flow has no Start node/);
  });
});

describe("classifyIntent", () => {
  it.each([
    ["Summarize notes.md into summary.md", "task"],
    ["what is in release-notes.md?", "task"],
    ["List the files", "task"],
    ["hello there", "conversation"],
    ["thanks!", "conversation"],
    ["", "conversation"],
  ])("%j is a %s", (text, intent) => {
    expect(classifyIntent(text)).toBe(intent);
  });
});
