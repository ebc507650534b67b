import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { AppError } from "../errors";
import { canonicalJson } from "../policy/canonical";
import { compileFlowSpec } from "./compile";
import type { FlowDocument, PolicyRule } from "./schema";

/** compileFlowSpec (docs/architecture.md#flows-and-compilation): a flow document as the graph builder runs it. */

const TOOLS = ["list_files", "read_file", "write_file", "delete_file", "rehydrate"];
const registry = { known: (n: string) => TOOLS.includes(n), sideEffect: (n: string) => n === "write_file" || n === "delete_file" };
type Node = FlowDocument["nodes"][number];

const agentNode = (id: string, name: string): Node => ({
  id,
  type: "agent",
  position: { x: 0, y: 0 },
  data: { name, role: "step_executor", instructions: `${name} rules`, model: "m-1", maxTries: 2, icon: "A", color: "#000000" },
});
const toolNode = (id: string, tool: string): Node => ({ id, type: "tool", position: { x: 0, y: 0 }, data: { tool } });
const edge = (source: string, target: string) => ({ id: `${source}->${target}`, source, target });

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected an AppError");
}

describe("compileFlowSpec", () => {
  it("reads the template: agent with the tools wired by edges, supervisor, limits, mode, default model", () => {
    const spec = compileFlowSpec(workspaceAssistant, registry);
    expect(spec).toMatchObject({
      name: "Workspace assistant",
      mode: "autonomous",
      defaultModel: "",
      supervisor: { name: "Supervisor", instructions: "Plan the task into steps and delegate each to the assistant." },
      limits: { maxIterations: 50, timeoutMs: 300_000 },
    });
    expect(spec.agents).toEqual([
      {
        id: "assistant",
        name: "Assistant",
        role: "step_executor",
        instructions: expect.stringContaining("Carry out one step"),
        model: "",
        maxTries: 3,
        icon: "📁",
        color: "#2f7d5b",
        tools: ["list_files", "read_file", "write_file", "delete_file", "rehydrate"],
      },
    ]);
  });

  it("each agent gets only the tools its own edges reach, in edge order, without duplicates", () => {
    const doc: FlowDocument = {
      ...workspaceAssistant,
      nodes: [...workspaceAssistant.nodes, agentNode("reader", "Reader"), toolNode("t-read2", "read_file")],
      edges: [
        ...workspaceAssistant.edges,
        edge("reader", "t-read2"),
        edge("reader", "t-list"),
        edge("reader", "t-read"),
        // A tool -> agent edge does not bind the tool; an agent -> agent edge is no tool.
        edge("t-write", "reader"),
        edge("reader", "assistant"),
      ],
    };
    const spec = compileFlowSpec(doc, registry);
    expect(spec.agents.map((a) => [a.id, a.tools])).toEqual([
      ["assistant", ["list_files", "read_file", "write_file", "delete_file", "rehydrate"]],
      ["reader", ["read_file", "list_files"]],
    ]);
    expect(spec.agents[1]).toMatchObject({ name: "Reader", model: "m-1", maxTries: 2 });
  });

  it("an agent bound to an unknown tool: AppError unprocessable / flow_not_runnable naming the node", () => {
    const doc: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.map((n) => (n.id === "t-read" ? toolNode("t-read", "read_mind") : n)) };
    const err = thrown(() => compileFlowSpec(doc, registry));
    expect([err.code, err.reason, err.status]).toEqual(["unprocessable", "flow_not_runnable", 422]);
    expect(err.message).toContain('"t-read"');
    expect(err.message).toContain('"read_mind"');
  });

  it("no agent, or no start node: flow_not_runnable", () => {
    const noAgent: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "agent") };
    expect(thrown(() => compileFlowSpec(noAgent, registry))).toMatchObject({ reason: "flow_not_runnable", message: expect.stringMatching(/no Agent node/) });
    const noStart: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "start") };
    expect(thrown(() => compileFlowSpec(noStart, registry))).toMatchObject({ reason: "flow_not_runnable", message: expect.stringMatching(/no Start node/) });
  });

  it("without a supervisor node the supervisor gets a default name", () => {
    const doc: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "supervisor") };
    expect(compileFlowSpec(doc, registry).supervisor).toEqual({ name: "Supervisor", instructions: "", model: "" });
  });

  it("decide() follows the policy rules in order, with the rule that matched", () => {
    const spec = compileFlowSpec(workspaceAssistant, registry);
    expect(TOOLS.map((t) => spec.decide(t, "{}").decision)).toEqual(["ALLOW", "ALLOW", "AUTH_REQUIRED", "BLOCKED", "ALLOW"]);
    expect(spec.decide("delete_file", "{}")).toMatchObject({
      rule: { tool: "delete_file", decision: "BLOCKED", risk: "high", permission: "any", match: [] },
      policy: { id: "policy", name: "File safety" },
      ruleIndex: 3,
    });
  });

  it("decide(): side-effect tools no rule covers need approval (per the registry), the rest are allowed", () => {
    const noPolicy: FlowDocument = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "policy") };
    const bare = compileFlowSpec(noPolicy, registry);
    expect(bare.decide("write_file", "{}")).toMatchObject({ decision: "AUTH_REQUIRED", rule: null, policy: null });
    expect(bare.decide("delete_file", "{}")).toMatchObject({ decision: "AUTH_REQUIRED", rule: null, policy: null });
    expect(bare.decide("read_file", "{}")).toMatchObject({ decision: "ALLOW", rule: null, policy: null });
    // The registry, not a built-in list, says what has side effects.
    const everything = compileFlowSpec(noPolicy, { ...registry, sideEffect: () => true });
    expect(everything.decide("read_file", "{}").decision).toBe("AUTH_REQUIRED");
  });

  const rule = (tool: string, decision: PolicyRule["decision"], more: Partial<PolicyRule> = {}): PolicyRule => ({ tool, decision, risk: "medium", permission: "any", match: [], ...more });
  const policy = (id: string, rules: PolicyRule[]): Node => ({ id, type: "policy", position: { x: 0, y: 0 }, data: { name: id, rules } });
  const withPolicies = (...policies: Node[]): FlowDocument => ({
    ...workspaceAssistant,
    nodes: [...workspaceAssistant.nodes.filter((n) => n.type !== "policy"), ...policies],
  });

  it("decide(): a '*' rule matches any tool; the first policy node that matches wins", () => {
    const doc = withPolicies(policy("p1", [rule("read_file", "ALLOW", { risk: "low" })]), policy("p2", [rule("*", "BLOCKED", { risk: "critical" }), rule("list_files", "ALLOW", { risk: "low" })]));
    const spec = compileFlowSpec(doc, registry);
    expect(spec.decide("read_file", "{}").decision).toBe("ALLOW");
    expect(spec.decide("list_files", "{}")).toMatchObject({ decision: "BLOCKED", rule: { tool: "*", risk: "critical" }, policy: { id: "p2" }, ruleIndex: 0 });
  });

  it("decide(): reads the canonical arguments and the permission level (default user)", () => {
    const doc = withPolicies(policy("p1", [rule("write_file", "ALLOW", { match: [{ kind: "path_glob", field: "path", pattern: "docs/**" }] }), rule("*_file", "BLOCKED", { permission: "user" })]));
    const spec = compileFlowSpec(doc, registry);
    expect(spec.decide("write_file", canonicalJson({ path: "docs/a.md" })).decision).toBe("ALLOW");
    expect(spec.decide("write_file", canonicalJson({ path: "docs/../a.md" })).decision).toBe("BLOCKED");
    expect(spec.decide("write_file", canonicalJson({ path: "a.md" }), "user").decision).toBe("BLOCKED");
    expect(spec.decide("write_file", canonicalJson({ path: "a.md" }), "admin")).toMatchObject({ decision: "AUTH_REQUIRED", rule: null });
    expect(() => spec.decide("write_file", '{ "path": "a.md" }')).toThrow(/canonical/);
  });
});
