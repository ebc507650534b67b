import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { decideTool } from "../policy/decide-tool";
import { FlowDocument } from "./schema";

describe("FlowDocument", () => {
  it("accepts the workspace assistant template", () => {
    expect(FlowDocument.parse(workspaceAssistant)).toEqual(workspaceAssistant);
  });

  it("fills defaults for agent fields", () => {
    const doc = FlowDocument.parse({
      settings: { name: "x" },
      nodes: [{ id: "a", type: "agent", position: { x: 0, y: 0 }, data: { name: "A" } }],
      edges: [],
    });
    const agent = doc.nodes[0];
    expect(agent?.type === "agent" && agent.data.maxTries).toBe(3);
    expect(doc.settings.limits).toEqual({ maxIterations: 50, timeoutMs: 300_000 });
  });

  it("names the field of a dangling edge and of a duplicate id", () => {
    const bad = {
      ...workspaceAssistant,
      nodes: [...workspaceAssistant.nodes, workspaceAssistant.nodes[0]],
      edges: [...workspaceAssistant.edges, { id: "e-x", source: "start", target: "ghost" }],
    };
    const result = FlowDocument.safeParse(bad);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(paths).toContain(`nodes.${workspaceAssistant.nodes.length}.id`);
    expect(paths).toContain(`edges.${workspaceAssistant.edges.length}.target`);
  });

  it("refuses an unknown node type and a bad policy decision", () => {
    const unknown = { ...workspaceAssistant, nodes: [{ id: "z", type: "teleporter", position: { x: 0, y: 0 }, data: {} }] };
    expect(FlowDocument.safeParse(unknown).success).toBe(false);
    const policy = {
      ...workspaceAssistant,
      nodes: [{ id: "p", type: "policy", position: { x: 0, y: 0 }, data: { name: "p", rules: [{ tool: "write_file", decision: "MAYBE" }] } }],
      edges: [],
    };
    const r = FlowDocument.safeParse(policy);
    expect(r.error?.issues[0]?.path.join(".")).toBe("nodes.0.data.rules.0.decision");
  });
});

describe("decideTool (SPEC.md 4)", () => {
  it("applies the template policy", () => {
    expect(decideTool(workspaceAssistant, "read_file").decision).toBe("ALLOW");
    expect(decideTool(workspaceAssistant, "list_files").decision).toBe("ALLOW");
    expect(decideTool(workspaceAssistant, "write_file").decision).toBe("AUTH_REQUIRED");
    expect(decideTool(workspaceAssistant, "delete_file")).toMatchObject({ decision: "BLOCKED", rule: { risk: "high" } });
  });

  it("defaults side-effect tools no rule covers to AUTH_REQUIRED", () => {
    const noPolicy = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "policy") };
    expect(decideTool(noPolicy, "write_file")).toEqual({ decision: "AUTH_REQUIRED", rule: null });
    expect(decideTool(noPolicy, "delete_file").decision).toBe("AUTH_REQUIRED");
    expect(decideTool(noPolicy, "read_file").decision).toBe("ALLOW");
  });
});
