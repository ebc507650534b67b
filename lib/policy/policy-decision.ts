import type { Decision, PolicyRule, RiskLevel } from "../flow/schema";
import type { ToolDecision } from "./evaluate-policy";

/** Next lifecycle state a policy decision may lead to (docs/architecture.md#run-lifecycle). */
export type NextState = "STEP_EXECUTION" | "WAIT_HUMAN" | "FAILED" | "ROLLBACK" | "REPLAN" | null;

/**
 * A policy decision (docs/architecture.md#run-lifecycle): allow, next state, reason, risk
 * level, whether a human must approve, and the tools it blocks.
 */
export interface PolicyDecision {
  allow: boolean;
  decision: Decision;
  next_state: NextState;
  reason: string;
  risk_level: RiskLevel;
  require_human_approval: boolean;
  blocked_tools: string[];
  /** The rule that matched, or null when the default applied. */
  rule: PolicyRule | null;
  /** The policy node holding that rule (id and name), or null when the default applied. */
  policy: { id: string; name: string } | null;
  /** 0-based position of the rule in its policy node, or null when the default applied. */
  rule_index: number | null;
  /** The rule in words, as the run view shows it (see `ToolDecision.explanation`). */
  explanation: string;
}

/** States a refusal may lead to (FAILED, ROLLBACK, WAIT_HUMAN, REPLAN or nowhere). */
const REFUSAL_STATES: readonly NextState[] = ["FAILED", "ROLLBACK", "WAIT_HUMAN", "REPLAN", null];

/**
 * The consistency rule (docs/architecture.md#run-lifecycle): a decision that does not allow must lead to FAILED,
 * ROLLBACK, WAIT_HUMAN, REPLAN or nowhere; one that requires approval must wait for a human;
 * an allowed one blocks nothing.
 */
export function isConsistent(d: PolicyDecision): boolean {
  if (!d.allow && !REFUSAL_STATES.includes(d.next_state)) return false;
  if (d.require_human_approval && d.next_state !== "WAIT_HUMAN") return false;
  if (d.allow && d.blocked_tools.length > 0) return false;
  return d.decision === "ALLOW" ? d.allow && !d.require_human_approval : !d.allow;
}

/**
 * Builds the PolicyDecision for a tool from the risk engine's decision (docs/architecture.md#state-and-channels):
 * ALLOW runs the step on, AUTH_REQUIRED waits for a human, BLOCKED refuses and the step goes
 * on without the tool (the Interpreter reports it; the engine, not the tool, decides what
 * follows). Risk is the rule's, or for the default low (ALLOW) / medium; `reason` is
 * `<tool> allowed|needs approval|blocked: <explanation>`.
 * @param decided the result of `evaluatePolicy`.
 * @throws Error when the result breaks the consistency rule (an engine bug, never user input).
 */
export function policyDecision(tool: string, decided: ToolDecision): PolicyDecision {
  const risk = decided.rule?.risk ?? (decided.decision === "ALLOW" ? "low" : "medium");
  const why = { rule: decided.rule, policy: decided.policy, rule_index: decided.ruleIndex, explanation: decided.explanation, risk_level: risk };
  const d: PolicyDecision =
    decided.decision === "ALLOW"
      ? { ...why, allow: true, decision: "ALLOW", next_state: "STEP_EXECUTION", reason: `${tool} allowed: ${decided.explanation}`, require_human_approval: false, blocked_tools: [] }
      : decided.decision === "AUTH_REQUIRED"
        ? { ...why, allow: false, decision: "AUTH_REQUIRED", next_state: "WAIT_HUMAN", reason: `${tool} needs approval: ${decided.explanation}`, require_human_approval: true, blocked_tools: [] }
        : { ...why, allow: false, decision: "BLOCKED", next_state: null, reason: `${tool} blocked: ${decided.explanation}`, require_human_approval: false, blocked_tools: [tool] };
  if (!isConsistent(d)) throw new Error(`inconsistent policy decision for ${tool}: ${JSON.stringify(d)}`);
  return d;
}
