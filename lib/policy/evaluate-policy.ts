import type { Decision, FlowNode, PermissionLevel, PolicyRule } from "../flow/schema";
import { canonicalJson } from "./canonical";
import { explainDefault, explainRule } from "./describe-rule";
import { matchArgument } from "./match-argument";
import { toolMatches } from "./tool-pattern";

/**
 * What the flow's policies decide for one tool call, and why (docs/architecture.md#state-and-channels). `rule`,
 * `policy` and `ruleIndex` are null when no rule applied and the default did.
 */
export interface ToolDecision {
  decision: Decision;
  /** The rule that matched; null when the default applied. */
  rule: PolicyRule | null;
  /** The policy node holding the rule (its id and name); null when the default applied. */
  policy: { id: string; name: string } | null;
  /** 0-based position of the rule within that policy node; null when the default applied. */
  ruleIndex: number | null;
  /**
   * Human text shown in the run view and inbox, e.g.
   * `File safety #3: write_file (path matches docs/**) → AUTH_REQUIRED (medium)` or
   * `default for tools with side effects → AUTH_REQUIRED`.
   */
  explanation: string;
}

/** The run a tool call belongs to, as the policies see it. */
export interface PolicyContext {
  /** The permission level of the run; a rule with a specific level applies only to it. */
  permission: PermissionLevel;
  /** Whether a tool has side effects (the tool registry on the server). */
  isSideEffect: (tool: string) => boolean;
}

/**
 * The risk engine's rule matcher (docs/architecture.md#policies). Policy nodes in document order, rules in
 * order; the first rule whose tool pattern covers `tool` (see `toolMatches`), whose
 * permission is "any" or `ctx.permission`, and all of whose argument matchers hold (see
 * `matchArgument`) decides. No rule: AUTH_REQUIRED for tools with side effects, ALLOW
 * otherwise.
 *
 * Matchers read the arguments parsed from their RFC 8785 canonical JSON text, never the
 * raw arguments the model produced, so key order, escapes and number spellings cannot
 * change a decision.
 * @param canonicalArgs RFC 8785 canonical JSON text of the arguments (`canonicalJson`).
 * @throws Error when `canonicalArgs` is not JSON or not in canonical form: an engine bug
 *   (the RiskGate recomputes the canonical text before deciding), never user input.
 */
export function evaluatePolicy(doc: { nodes: readonly FlowNode[] }, tool: string, canonicalArgs: string, ctx: PolicyContext): ToolDecision {
  const args = parseCanonical(canonicalArgs);
  for (const node of doc.nodes) {
    if (node.type !== "policy") continue;
    const ruleIndex = node.data.rules.findIndex(
      (rule) => toolMatches(rule.tool, tool) && (rule.permission === "any" || rule.permission === ctx.permission) && rule.match.every((m) => matchArgument(m, args)),
    );
    const rule = node.data.rules[ruleIndex];
    if (rule) {
      return {
        decision: rule.decision,
        rule,
        policy: { id: node.id, name: node.data.name },
        ruleIndex,
        explanation: explainRule(node.data.name, ruleIndex, rule),
      };
    }
  }
  return { ...explainDefault(ctx.isSideEffect(tool)), rule: null, policy: null, ruleIndex: null };
}

/** Parses canonical JSON text and checks it is canonical (RFC 8785: re-canonicalising gives it back). */
function parseCanonical(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`evaluatePolicy: arguments are not JSON: ${text.slice(0, 80)}`);
  }
  if (canonicalJson(value) !== text) {
    throw new Error(`evaluatePolicy: arguments are not RFC 8785 canonical JSON: ${text.slice(0, 80)}`);
  }
  return value;
}
