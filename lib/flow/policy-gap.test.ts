import { describe, expect, it } from "vitest";
import { toolCoverage } from "./coverage-memo";
import { needsPolicyRule, uncoveredMessage } from "./policy-gap";
import type { PolicyNodeType } from "./react-flow";
import { policyCoverage } from "./react-flow";
import type { FlowNode, PolicyRule } from "./schema";
import { validateFlow } from "./validate";

const pos = { x: 0, y: 0 };
const policy = (rules: PolicyRule[]): PolicyNodeType => ({ id: "p", type: "policy", position: pos, data: { name: "P", rules } });
const rule = (tool: string, extra: Partial<PolicyRule> = {}): PolicyRule => ({ tool, decision: "ALLOW", risk: "low", permission: "any", match: [], ...extra });

/** Start -> Supervisor -> Agent -> write_file; Supervisor -> End; and the policy given. */
function flow(p: PolicyNodeType): FlowNode[] {
  return [
    { id: "start", type: "start", position: pos, data: { label: "Start" } },
    { id: "sup", type: "supervisor", position: pos, data: { name: "S", instructions: "" } },
    { id: "a", type: "agent", position: pos, data: { name: "A", role: "step_executor", instructions: "", model: "", maxTries: 3, icon: "bot", color: "#5b3cc4" } },
    { id: "w", type: "tool", position: pos, data: { tool: "write_file" } },
    { id: "end", type: "end", position: pos, data: { label: "End" } },
    p as FlowNode,
  ];
}
const edges = [
  { id: "1", source: "start", target: "sup" },
  { id: "2", source: "sup", target: "a" },
  { id: "3", source: "a", target: "w" },
  { id: "4", source: "sup", target: "end" },
];
const catalog = { known: () => true, sideEffect: (n: string) => n === "write_file" };

describe("needsPolicyRule", () => {
  it("is true only for a tool with side effects that no rule covers", () => {
    expect(needsPolicyRule(policyCoverage({ nodes: [policy([])] }, "write_file", true), true)).toBe(true);
    expect(needsPolicyRule(policyCoverage({ nodes: [policy([])] }, "read_file", false), false)).toBe(false);
    expect(needsPolicyRule(policyCoverage({ nodes: [policy([rule("*_file")])] }, "write_file", true), true)).toBe(false);
    const conditional = rule("write_file", { permission: "admin" });
    expect(needsPolicyRule(policyCoverage({ nodes: [policy([conditional])] }, "write_file", true), true)).toBe(false);
  });

  it("agrees with validation: an empty policy with a side-effect tool is refused, a rule makes it runnable", () => {
    const empty = policy([]);
    expect(validateFlow({ nodes: flow(empty), edges }, catalog).map((p) => p.code)).toEqual(["side_effect_uncovered"]);
    expect(toolCoverage([empty], "write_file", true)).toMatchObject({ needsRule: true, line: null, title: uncoveredMessage("write_file") });

    const covered = policy([rule("write_file", { decision: "AUTH_REQUIRED" })]);
    expect(validateFlow({ nodes: flow(covered), edges }, catalog)).toEqual([]);
    expect(toolCoverage([covered], "write_file", true)).toMatchObject({ needsRule: false, coverage: { decision: "AUTH_REQUIRED" } });
  });
});
