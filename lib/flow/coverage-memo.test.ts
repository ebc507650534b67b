import { describe, expect, it } from "vitest";
import { toolCoverage } from "./coverage-memo";
import type { PolicyNodeType } from "./react-flow";

function policy(id: string, decision: "ALLOW" | "BLOCKED"): PolicyNodeType {
  return { id, type: "policy", position: { x: 0, y: 0 }, data: { name: id, rules: [{ tool: "write_*", decision, risk: "low", permission: "any", match: [] }] } };
}

describe("toolCoverage", () => {
  it("decides like policyCoverage", () => {
    const policies = [policy("p", "BLOCKED")];
    expect(toolCoverage(policies, "write_file", true).coverage).toMatchObject({ decision: "BLOCKED", policyId: "p", ruleIndex: 0 });
    expect(toolCoverage(policies, "read_file", false).coverage).toMatchObject({ decision: "ALLOW", policyId: null });
    expect(toolCoverage(policies, "delete_file", true).coverage.decision).toBe("AUTH_REQUIRED");
  });

  it("answers with the same object while the policies only move", () => {
    const p = policy("p", "ALLOW");
    const first = toolCoverage([p], "write_file", true);
    const moved = { ...p, position: { x: 10, y: 10 } };
    expect(toolCoverage([moved], "write_file", true)).toBe(first);
  });

  it("recomputes after a policy edit, an added policy or a reorder", () => {
    const a = policy("a", "ALLOW");
    const b = policy("b", "BLOCKED");
    expect(toolCoverage([a], "write_file", true).coverage.decision).toBe("ALLOW");
    const edited = { ...a, data: { ...a.data, rules: [{ ...a.data.rules[0], tool: "write_*", decision: "BLOCKED" as const, risk: "low" as const, permission: "any" as const, match: [] }] } };
    expect(toolCoverage([edited], "write_file", true).coverage.decision).toBe("BLOCKED");
    expect(toolCoverage([a, b], "write_file", true).coverage.policyId).toBe("a");
    expect(toolCoverage([b, a], "write_file", true).coverage.policyId).toBe("b");
  });
});
