import { describe, expect, it } from "vitest";
import { ArgMatcher, PolicyRule } from "../flow/schema";
import { describeMatcher, explainDefault, explainRule, ruleConditions } from "./describe-rule";

/** Policy rules in words (docs/architecture.md#policies), as the editor, run view and inbox show them. */
describe("describe-rule", () => {
  it.each([
    [{ kind: "path_glob", field: "path", pattern: "docs/**" }, "path matches docs/**"],
    [{ kind: "url_host", field: "request.url", hosts: ["example.com"] }, "request.url host is example.com"],
    [{ kind: "url_host", field: "url", hosts: ["a.com", "*.b.com"] }, "url host in a.com, *.b.com"],
    [{ kind: "number", field: "amount", op: "gt", value: 1000 }, "amount > 1000"],
    [{ kind: "number", field: "amount", op: "lte", value: -1.5 }, "amount ≤ -1.5"],
    [{ kind: "number", field: "n", op: "neq", value: 0 }, "n ≠ 0"],
    [{ kind: "regex", field: "note", pattern: "^draft" }, "note ~ /^draft/"],
    [{ kind: "regex", field: "note", pattern: "^draft", flags: "i" }, "note ~ /^draft/i"],
  ])("%j reads %j", (matcher, text) => {
    expect(describeMatcher(ArgMatcher.parse(matcher))).toBe(text);
  });

  it("joins a rule's matchers and permission; unconditional rules have none", () => {
    const rule = PolicyRule.parse({
      tool: "*_file",
      decision: "BLOCKED",
      risk: "critical",
      permission: "user",
      match: [
        { kind: "path_glob", field: "path", pattern: "secrets/**" },
        { kind: "number", field: "size", op: "gte", value: 10 },
      ],
    });
    expect(ruleConditions(rule)).toBe("path matches secrets/** and size ≥ 10 and permission user");
    expect(explainRule("Vault", 4, rule)).toBe("Vault #5: *_file (path matches secrets/** and size ≥ 10 and permission user) → BLOCKED (critical)");
    expect(ruleConditions(PolicyRule.parse({ tool: "x", decision: "ALLOW" }))).toBe("");
  });

  it("explains the default by side effects", () => {
    expect(explainDefault(true)).toEqual({ decision: "AUTH_REQUIRED", explanation: "default for tools with side effects → AUTH_REQUIRED" });
    expect(explainDefault(false)).toEqual({ decision: "ALLOW", explanation: "default for tools without side effects → ALLOW" });
  });
});
