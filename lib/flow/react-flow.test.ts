import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { type EditorNode, fromReactFlow, nextEdgeId, policyCoverage, toReactFlow } from "./react-flow";
import type { FlowDocument } from "./schema";

describe("toReactFlow / fromReactFlow", () => {
  it("round-trips the workspace assistant template", () => {
    const { nodes, edges } = toReactFlow(workspaceAssistant);
    expect(fromReactFlow(workspaceAssistant.settings, nodes, edges)).toEqual(workspaceAssistant);
  });

  it("drops React Flow's own fields and keeps moved positions", () => {
    const { nodes, edges } = toReactFlow(workspaceAssistant);
    const moved = nodes.map(
      (n): EditorNode => ({ ...n, selected: true, measured: { width: 10, height: 10 }, position: { x: 1, y: 2 } }),
    );
    const doc = fromReactFlow(workspaceAssistant.settings, moved, [
      ...edges.map((e) => ({ ...e, selected: true, sourceHandle: null })),
    ]);
    expect(doc.nodes[0]).toEqual({ id: "start", type: "start", position: { x: 1, y: 2 }, data: { label: "Start" } });
    expect(doc.edges[0]).toEqual({ id: "e-start", source: "start", target: "supervisor" });
  });

  it("copies data so editing never mutates the document", () => {
    const { nodes } = toReactFlow(workspaceAssistant);
    const policy = nodes.find((n) => n.type === "policy");
    if (policy?.type !== "policy") throw new Error("template has a policy node");
    policy.data.rules.pop();
    const original = workspaceAssistant.nodes.find((n) => n.type === "policy");
    expect(original?.type === "policy" && original.data.rules).toHaveLength(5);
  });
});

describe("nextEdgeId", () => {
  it("picks the smallest free counter", () => {
    expect(nextEdgeId([], "a", "b")).toBe("e-a-b-1");
    expect(nextEdgeId([{ id: "e-a-b-1" }, { id: "e-a-b-3" }], "a", "b")).toBe("e-a-b-2");
  });
});

describe("policyCoverage", () => {
  it("names the deciding policy node and rule of the template", () => {
    expect(policyCoverage(workspaceAssistant, "read_file", false)).toEqual({
      decision: "ALLOW",
      policyId: "policy",
      ruleIndex: 1,
    });
    expect(policyCoverage(workspaceAssistant, "delete_file", true)).toEqual({
      decision: "BLOCKED",
      policyId: "policy",
      ruleIndex: 3,
    });
  });

  it("falls back to AUTH_REQUIRED for side effects and ALLOW otherwise", () => {
    expect(policyCoverage(workspaceAssistant, "send_email", true)).toEqual({
      decision: "AUTH_REQUIRED",
      policyId: null,
      ruleIndex: null,
    });
    expect(policyCoverage(workspaceAssistant, "search_web", false).decision).toBe("ALLOW");
  });

  it("takes policy nodes in document order and lets `*` match any tool", () => {
    const doc: Pick<FlowDocument, "nodes"> = {
      nodes: [
        { id: "p1", type: "policy", position: { x: 0, y: 0 }, data: { name: "Lockdown", rules: [{ tool: "*", decision: "BLOCKED", risk: "critical" }] } },
        ...workspaceAssistant.nodes,
      ],
    };
    expect(policyCoverage(doc, "read_file", false)).toEqual({ decision: "BLOCKED", policyId: "p1", ruleIndex: 0 });
  });

  it("reads React Flow nodes as well", () => {
    const { nodes } = toReactFlow(workspaceAssistant);
    expect(policyCoverage({ nodes }, "write_file", true).ruleIndex).toBe(2);
  });
});
