import { describe, expect, it } from "vitest";
import { routeTask } from "@/lib/flow/route-task";
import { FlowDocument } from "@/lib/flow/schema";
import { matchArgument } from "@/lib/policy/match-argument";

/**
 * Regular expressions a tenant writes (policy matchers, Router conditions) against inputs
 * a tenant controls (a task, tool arguments): docs/security.md "Regular expressions".
 * Each pattern below takes exponential (or high polynomial) time on a backtracking engine
 * for the input beside it: with `RegExp` these tests never finish, which the test timeout
 * turns into a failure. On the linear-time engine each search is over in milliseconds.
 */
const EVIL: readonly [pattern: string, subject: string][] = [
  ["((a+))+$", `${"a".repeat(5_000)}!`],
  ["(a+)+$", `${"a".repeat(5_000)}!`],
  ["(a|aa)+$", `${"a".repeat(5_000)}!`],
  ["(a|a?)+$", `${"a".repeat(5_000)}!`],
  ["(\\w*)*$", `${"x".repeat(5_000)}!`],
  ["(.*a){20}", "a".repeat(5_000)],
  ["^(([a-z])+.)+[A-Z]([a-z])+$", `${"aaaaaaaaaaaaaaaaaaaaaaaa".repeat(200)}!`],
  ["(x+x+)+y", "x".repeat(5_000)],
  ["^(\\d+)*$", `${"1".repeat(5_000)}a`],
  ["(a*)*b", "a".repeat(5_000)],
  ["^(a?){25}a{25}$", "a".repeat(25)],
  ["(?:a|b|ab)*c", "ab".repeat(2_500)],
];

describe("an attacker's catastrophic regex cannot freeze the server", () => {
  it.each(EVIL)("a policy matcher %s runs in linear time on a hostile argument", (pattern, subject) => {
    expect(matchArgument({ kind: "regex", field: "note", pattern }, { note: subject })).toBeTypeOf("boolean");
  });

  it.each(EVIL)("a Router condition %s runs in linear time on a hostile task", (pattern, subject) => {
    const route = { routerId: "r", routerName: "Router", index: 0, match: "regex" as const, value: pattern, agentId: "agent" };
    expect([null, route]).toContain(routeTask([route], subject));
  });

  it.each(EVIL)("the flow schema accepts %s, since no pattern can stall the engine any more", (pattern) => {
    const doc = {
      name: "f",
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        { id: "p", type: "policy", position: { x: 0, y: 0 }, data: { name: "P", rules: [{ tool: "x", decision: "ALLOW", match: [{ kind: "regex", field: "n", pattern }] }] } },
      ],
      edges: [],
    };
    const parsed = FlowDocument.safeParse(doc);
    const regexIssues = parsed.success ? [] : parsed.error.issues.filter((i) => i.path.includes("pattern"));
    expect(regexIssues).toEqual([]);
  });

  it("still finds what a rule means to find, ignoring case when asked", () => {
    expect(matchArgument({ kind: "regex", field: "note", pattern: "^draft:", flags: "i" }, { note: "DRAFT: x" })).toBe(true);
    expect(matchArgument({ kind: "regex", field: "note", pattern: "^draft:" }, { note: "DRAFT: x" })).toBe(false);
  });
});
