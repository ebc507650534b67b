import { describe, expect, it } from "vitest";
import { isConsistent, type PolicyDecision, policyDecision } from "./policy-decision";

/** PolicyDecision and the consistency rule of SPEC.md 3 (seed 003). */
describe("policyDecision", () => {
  const rule = (decision: "ALLOW" | "AUTH_REQUIRED" | "BLOCKED") => ({ tool: "write_file", decision, risk: "high" as const });

  it("maps each decision to its next state, approval flag and blocked tools", () => {
    expect(policyDecision("write_file", { decision: "ALLOW", rule: rule("ALLOW") })).toMatchObject({ allow: true, next_state: "STEP_EXECUTION", require_human_approval: false, blocked_tools: [], risk_level: "high" });
    expect(policyDecision("write_file", { decision: "AUTH_REQUIRED", rule: null })).toMatchObject({
      allow: false,
      next_state: "WAIT_HUMAN",
      require_human_approval: true,
      risk_level: "medium",
      reason: "write_file needs approval by default for tools with side effects",
    });
    expect(policyDecision("write_file", { decision: "BLOCKED", rule: rule("BLOCKED") })).toMatchObject({ allow: false, next_state: null, blocked_tools: ["write_file"] });
  });

  const base: PolicyDecision = { allow: false, decision: "BLOCKED", next_state: null, reason: "", risk_level: "high", require_human_approval: false, blocked_tools: ["x"], rule: null };
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
