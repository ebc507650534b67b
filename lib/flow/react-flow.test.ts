import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { describeCoverage, type EditorNode, fromReactFlow, nextEdgeId, policyCoverage, toReactFlow } from "./react-flow";
import { FlowDocument } from "./schema";

describe("toReactFlow / fromReactFlow", () => {
  it("round-trips the workspace assistant template", () => {
    const { nodes, edges } = toReactFlow(workspaceAssistant);
    expect(fromReactFlow(workspaceAssistant.settings, nodes, edges)).toEqual(workspaceAssistant);
  });

  it("drops React Flow's own fields and keeps moved positions", () => {
    const { nodes, edges } = toReactFlow(workspaceAssistant);
    const moved = nodes.map((n): EditorNode => ({ ...n, selected: true, measured: { width: 10, height: 10 }, position: { x: 1, y: 2 } }));
    const doc = fromReactFlow(workspaceAssistant.settings, moved, [...edges.map((e) => ({ ...e, selected: true, sourceHandle: null }))]);
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
  const none = { policyName: null, conditions: [] };
  it("names the deciding policy node and rule of the template", () => {
    expect(policyCoverage(workspaceAssistant, "read_file", false)).toEqual({
      decision: "ALLOW",
      policyId: "policy",
      policyName: "File safety",
      ruleIndex: 1,
      conditions: [],
    });
    expect(policyCoverage(workspaceAssistant, "delete_file", true)).toMatchObject({ decision: "BLOCKED", policyId: "policy", ruleIndex: 3 });
  });

  it("falls back to AUTH_REQUIRED for side effects and ALLOW otherwise", () => {
    expect(policyCoverage(workspaceAssistant, "send_email", true)).toEqual({ decision: "AUTH_REQUIRED", policyId: null, ruleIndex: null, ...none });
    expect(policyCoverage(workspaceAssistant, "search_web", false).decision).toBe("ALLOW");
  });

  it("takes policy nodes in document order and lets `*` and globs match tools", () => {
    const lockdown = (tool: string): Pick<FlowDocument, "nodes"> => ({
      nodes: [
        { id: "p1", type: "policy", position: { x: 0, y: 0 }, data: { name: "Lockdown", rules: [{ tool, decision: "BLOCKED", risk: "critical", permission: "any", match: [] }] } },
        ...workspaceAssistant.nodes,
      ],
    });
    expect(policyCoverage(lockdown("*"), "read_file", false)).toMatchObject({ decision: "BLOCKED", policyId: "p1", ruleIndex: 0 });
    expect(policyCoverage(lockdown("*_file"), "read_file", false)).toMatchObject({ decision: "BLOCKED", policyId: "p1" });
    expect(policyCoverage(lockdown("*_file"), "list_files", false)).toMatchObject({ decision: "ALLOW", policyId: "policy", ruleIndex: 0 });
    expect(policyCoverage(lockdown("write_*"), "read_file", false)).toMatchObject({ decision: "ALLOW", policyId: "policy", ruleIndex: 1 });
  });

  it("reads React Flow nodes as well", () => {
    const { nodes } = toReactFlow(workspaceAssistant);
    expect(policyCoverage({ nodes }, "write_file", true).ruleIndex).toBe(2);
  });

  const conditional = FlowDocument.parse({
    settings: { name: "f" },
    edges: [],
    nodes: [
      {
        id: "p1",
        type: "policy",
        position: { x: 0, y: 0 },
        data: {
          name: "File safety",
          rules: [
            { tool: "read_file", decision: "ALLOW" },
            { tool: "write_file", decision: "ALLOW", match: [{ kind: "path_glob", field: "path", pattern: "docs/**" }] },
          ],
        },
      },
      { id: "p2", type: "policy", position: { x: 0, y: 0 }, data: { name: "Admins", rules: [{ tool: "*", decision: "BLOCKED", permission: "admin" }] } },
      { id: "p3", type: "policy", position: { x: 0, y: 0 }, data: { name: "Rest", rules: [{ tool: "*_file", decision: "AUTH_REQUIRED" }] } },
    ],
  });

  it("lists conditional rules met before the fallback, in order", () => {
    expect(policyCoverage(conditional, "write_file", true)).toEqual({
      decision: "AUTH_REQUIRED",
      policyId: "p3",
      policyName: "Rest",
      ruleIndex: 0,
      conditions: [
        { policyId: "p1", policyName: "File safety", ruleIndex: 1, decision: "ALLOW", when: "path matches docs/**" },
        { policyId: "p2", policyName: "Admins", ruleIndex: 0, decision: "BLOCKED", when: "permission admin" },
      ],
    });
    // An unconditional rule first: later conditional rules never apply.
    expect(policyCoverage(conditional, "read_file", false).conditions).toEqual([]);
    expect(policyCoverage(conditional, "send_email", true)).toMatchObject({ decision: "AUTH_REQUIRED", policyId: null, conditions: [{ policyName: "Admins" }] });
  });

  it("describes coverage: one short line only for conditional rules, full detail in the title", () => {
    expect(describeCoverage(policyCoverage(conditional, "read_file", false), false)).toEqual({ line: null, title: 'Decided by policy "File safety", rule 1' });
    expect(describeCoverage(policyCoverage(workspaceAssistant, "search_web", false), false)).toEqual({
      line: null,
      title: "No rule matches: the default for tools without side effects",
    });
    expect(describeCoverage(policyCoverage(conditional, "write_file", true), true)).toEqual({
      line: "policy File safety rule 2 when path matches docs/** → ALLOW; +1 more; otherwise AUTH_REQUIRED",
      title: ['Policy "File safety", rule 2, when path matches docs/** → ALLOW', 'Policy "Admins", rule 1, when permission admin → BLOCKED', 'Otherwise policy "Rest", rule 1 → AUTH_REQUIRED'].join(
        "\n",
      ),
    });
    expect(describeCoverage(policyCoverage(conditional, "send_email", true), true).title).toBe(
      'Policy "Admins", rule 1, when permission admin → BLOCKED\nOtherwise the default for tools with side effects → AUTH_REQUIRED',
    );
  });
});
