import type { ArgMatcher, Decision, PolicyRule } from "../flow/schema";

/**
 * Policy rules in words, for the editor, the run view and the inbox (docs/architecture.md#policies). Plain
 * TypeScript without Node built-ins, so the browser can use it too.
 */

const OP_SYMBOL = { gt: ">", gte: "≥", lt: "<", lte: "≤", eq: "=", neq: "≠" } as const;

/**
 * One argument matcher, compactly: `path matches docs/**`, `url host is example.com`,
 * `amount > 1000`, `note ~ /^draft/i`.
 */
export function describeMatcher(m: ArgMatcher): string {
  switch (m.kind) {
    case "path_glob":
      return `${m.field} matches ${m.pattern}`;
    case "url_host":
      return m.hosts.length === 1 ? `${m.field} host is ${m.hosts[0]}` : `${m.field} host in ${m.hosts.join(", ")}`;
    case "number":
      return `${m.field} ${OP_SYMBOL[m.op]} ${m.value}`;
    case "regex":
      return `${m.field} ~ /${m.pattern}/${m.flags ?? ""}`;
  }
}

/**
 * The conditions of a rule beyond its tool pattern: its matchers joined by "and", and its
 * permission level unless "any". Empty string when the rule holds for every argument and
 * every permission level (an unconditional rule).
 */
export function ruleConditions(rule: Pick<PolicyRule, "permission" | "match">): string {
  const parts = rule.match.map(describeMatcher);
  if (rule.permission !== "any") parts.push(`permission ${rule.permission}`);
  return parts.join(" and ");
}

/**
 * The explanation of a matched rule shown in the run view and the inbox:
 * `File safety #3: write_file (path matches docs/**) → AUTH_REQUIRED (medium)`.
 * @param ruleIndex 0-based position of the rule in its policy node (shown 1-based).
 */
export function explainRule(policyName: string, ruleIndex: number, rule: PolicyRule): string {
  const conditions = ruleConditions(rule);
  const when = conditions ? ` (${conditions})` : "";
  return `${policyName} #${ruleIndex + 1}: ${rule.tool}${when} → ${rule.decision} (${rule.risk})`;
}

/**
 * The explanation when no rule applies: tools with side effects need approval, the others
 * are allowed (docs/architecture.md#approvals), e.g. `default for tools with side effects → AUTH_REQUIRED`.
 */
export function explainDefault(sideEffect: boolean): { decision: Decision; explanation: string } {
  const decision: Decision = sideEffect ? "AUTH_REQUIRED" : "ALLOW";
  return { decision, explanation: `default for tools ${sideEffect ? "with" : "without"} side effects → ${decision}` };
}
