import { describe, expect, it } from "vitest";
import type { ToolDecision } from "./evaluate-policy";
import { isConsistent, type PolicyDecision, policyDecision } from "./policy-decision";

/** PolicyDecision and its consistency rule (docs/architecture.md#run-lifecycle). */
describe("policyDecision", () => {
  const ruled = (decision: "ALLOW" | "AUTH_REQUIRED" | "BLOCKED"): ToolDecision => ({
    decision,
    rule: { tool: "write_file", decision, risk: "high", permission: "any", match: [] },
    policy: { id: "p1", name: "File safety" },
    ruleIndex: 2,
    explanation: `File safety #3: write_file → ${decision} (high)`,
  });
  const byDefault: ToolDecision = { decision: "AUTH_REQUIRED", rule: null, policy: null, ruleIndex: null, explanation: "default for tools with side effects → AUTH_REQUIRED" };

  it("maps each decision to its next state, approval flag and blocked tools", () => {
    expect(policyDecision("write_file", ruled("ALLOW"))).toMatchObject({ allow: true, next_state: "STEP_EXECUTION", require_human_approval: false, blocked_tools: [], risk_level: "high" });
    expect(policyDecision("write_file", byDefault)).toMatchObject({ allow: false, next_state: "WAIT_HUMAN", require_human_approval: true, risk_level: "medium" });
    expect(policyDecision("write_file", ruled("BLOCKED"))).toMatchObject({ allow: false, next_state: null, blocked_tools: ["write_file"] });
  });

  it("carries the rule, its policy and position, and says why in the reason", () => {
    expect(policyDecision("write_file", ruled("BLOCKED"))).toMatchObject({
      policy: { id: "p1", name: "File safety" },
      rule_index: 2,
      rule: { tool: "write_file", risk: "high" },
      explanation: "File safety #3: write_file → BLOCKED (high)",
      reason: "write_file blocked: File safety #3: write_file → BLOCKED (high)",
    });
    expect(policyDecision("write_file", ruled("ALLOW")).reason).toBe("write_file allowed: File safety #3: write_file → ALLOW (high)");
    expect(policyDecision("write_file", byDefault)).toMatchObject({
      policy: null,
      rule_index: null,
      rule: null,
      reason: "write_file needs approval: default for tools with side effects → AUTH_REQUIRED",
    });
    const allowedByDefault: ToolDecision = { ...byDefault, decision: "ALLOW", explanation: "default for tools without side effects → ALLOW" };
    expect(policyDecision("read_file", allowedByDefault)).toMatchObject({ risk_level: "low", allow: true });
  });

  const base: PolicyDecision = {
    allow: false,
    decision: "BLOCKED",
    next_state: null,
    reason: "",
    risk_level: "high",
    require_human_approval: false,
    blocked_tools: ["x"],
    rule: null,
    policy: null,
    rule_index: null,
    explanation: "",
  };
  it.each([
    [{ ...base, next_state: "STEP_EXECUTION" as const }, false],
    [{ ...base, next_state: "FAILED" as const }, true],
    [{ ...base, next_state: "ROLLBACK" as const }, true],
    [{ ...base, next_state: "REPLAN" as const }, true],
    [{ ...base, decision: "AUTH_REQUIRED" as const, require_human_approval: true, next_state: "FAILED" as const, blocked_tools: [] }, false],
    [{ ...base, allow: true, decision: "ALLOW" as const, next_state: "STEP_EXECUTION" as const }, false],
    [{ ...base, allow: true, decision: "BLOCKED" as const, next_state: "STEP_EXECUTION" as const, blocked_tools: [] }, false],
  ])("consistency of %j is %s", (d, ok) => {
    expect(isConsistent(d)).toBe(ok);
  });
});
