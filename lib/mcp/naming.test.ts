import { describe, expect, it } from "vitest";
import { toolMatches } from "../policy/tool-pattern";
import { mcpToolName, nameTools, ServerName } from "./naming";

describe("MCP tool names", () => {
  it("are mcp__<server>__<tool>, the tool part lower-cased with other chars turned into _", () => {
    expect(mcpToolName("notes", "save_note")).toEqual({ ok: true, name: "mcp__notes__save_note" });
    expect(mcpToolName("git_hub", "Search Issues-v2.1")).toEqual({ ok: true, name: "mcp__git_hub__search_issues_v2_1" });
    expect(mcpToolName("notes", "naïve")).toEqual({ ok: true, name: "mcp__notes__na_ve" });
  });

  it("satisfy the flow schema's tool name rule and policy globs", () => {
    const named = mcpToolName("notes", "Echo");
    if (!named.ok) throw new Error("named");
    expect(named.name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(toolMatches("mcp__notes__*", named.name)).toBe(true);
    expect(toolMatches("mcp__*__echo", named.name)).toBe(true);
    expect(toolMatches("mcp__other__*", named.name)).toBe(false);
  });

  it("leave out tools that would be longer than 64 chars or have nothing to name them by, saying why", () => {
    const long = mcpToolName("notes", "x".repeat(60));
    expect(long.ok).toBe(false);
    expect(!long.ok && long.problem).toMatch(/at most 64/);
    expect(mcpToolName("notes", "x".repeat(64 - "mcp__notes__".length)).ok).toBe(true);
    expect(mcpToolName("notes", "---").ok).toBe(false);
  });

  it("keep the first of two tools with the same name and report the second", () => {
    const named = nameTools("notes", [{ name: "echo" }, { name: "Echo" }, { name: "add" }]);
    expect(named[0]).toEqual({ ok: true, name: "mcp__notes__echo" });
    expect(named[1]?.ok).toBe(false);
    expect(named[1] && !named[1].ok && named[1].problem).toMatch(/"Echo" and "echo" would both be mcp__notes__echo/);
    expect(named[2]).toEqual({ ok: true, name: "mcp__notes__add" });
  });

  it("server names are snake_case slugs without double underscores", () => {
    expect(ServerName.safeParse("notes").success).toBe(true);
    expect(ServerName.safeParse("git_hub2").success).toBe(true);
    for (const bad of ["Notes", "a__b", "_a", "1a", "a-b", "", "a".repeat(21)]) expect(ServerName.safeParse(bad).success, bad).toBe(false);
  });
});
