import type { Decision, FlowDocument, PolicyRule } from "../flow/schema";

/** Built-in tools with side effects, for callers without the registry (e.g. the browser). */
const SIDE_EFFECT_TOOLS = new Set(["write_file", "delete_file"]);
const builtinSideEffect = (tool: string): boolean => SIDE_EFFECT_TOOLS.has(tool);

/** The decision for a tool and the rule that gave it (`null` when the default applied). */
export interface ToolDecision {
  decision: Decision;
  rule: PolicyRule | null;
}

/**
 * Decides a tool by the flow's policy rules: policy nodes in document order, rules in
 * order, first match wins (`*` matches any tool). No match: AUTH_REQUIRED for tools with
 * side effects (per `isSideEffect`, the tool registry on the server), ALLOW otherwise (SPEC.md 4).
 */
export function decideTool(doc: FlowDocument, tool: string, isSideEffect: (tool: string) => boolean = builtinSideEffect): ToolDecision {
  for (const node of doc.nodes) {
    if (node.type !== "policy") continue;
    const rule = node.data.rules.find((r) => r.tool === tool || r.tool === "*");
    if (rule) return { decision: rule.decision, rule };
  }
  return { decision: isSideEffect(tool) ? "AUTH_REQUIRED" : "ALLOW", rule: null };
}
