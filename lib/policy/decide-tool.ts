import type { FlowNode } from "../flow/schema";
import { explainDefault, explainRule } from "./describe-rule";
import type { ToolDecision } from "./evaluate-policy";
import { toolMatches } from "./tool-pattern";

/** Built-in tools with side effects, for callers without the registry (e.g. the browser). */
const SIDE_EFFECT_TOOLS = new Set(["write_file", "delete_file"]);
const builtinSideEffect = (tool: string): boolean => SIDE_EFFECT_TOOLS.has(tool);

/**
 * The name-only view of the flow's policies (SPEC.md 4), for callers without the call's
 * arguments: what decides a tool when none of the conditional rules applies. Policy nodes
 * in document order, rules in order; the first rule whose tool pattern covers `tool` and
 * that has no argument matchers and permission "any" decides; conditional rules (matchers
 * or a specific permission) are skipped. No rule: AUTH_REQUIRED for tools with side effects
 * (per `isSideEffect`, the tool registry on the server), ALLOW otherwise. When the call's
 * canonical arguments are known, use `evaluatePolicy`: it is what the RiskGate decides with.
 */
export function decideTool(
  doc: { nodes: readonly FlowNode[] },
  tool: string,
  isSideEffect: (tool: string) => boolean = builtinSideEffect,
): ToolDecision {
  for (const node of doc.nodes) {
    if (node.type !== "policy") continue;
    const ruleIndex = node.data.rules.findIndex(
      (rule) => toolMatches(rule.tool, tool) && rule.permission === "any" && rule.match.length === 0,
    );
    const rule = node.data.rules[ruleIndex];
    if (rule) {
      const explanation = explainRule(node.data.name, ruleIndex, rule);
      return { decision: rule.decision, rule, policy: { id: node.id, name: node.data.name }, ruleIndex, explanation };
    }
  }
  return { ...explainDefault(isSideEffect(tool)), rule: null, policy: null, ruleIndex: null };
}
