import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolDefinition } from "./gateway";
import { recall, remember } from "./memory-tools";
import { builtinTools } from "./registry";
import type { MemoryAccess, RecalledFact } from "./types";

/**
 * An in-memory MemoryAccess (the interface's twin): facts in a list, equal
 * content merged, recall ranked by shared words. The real one lives in lib/memory.
 */
function inMemoryAccess(threadId: string): MemoryAccess & { facts: RecalledFact[] } {
  const facts: RecalledFact[] = [];
  const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return {
    facts,
    async remember({ content, tags }) {
      const same = facts.find((f) => f.content === content);
      if (same) {
        same.tags = [...new Set([...same.tags, ...tags])];
        return { id: same.id, created: false };
      }
      const id = `fact_${facts.length + 1}`;
      facts.push({ id, content, tags, score: 0, source: { threadId, stepId: null } });
      return { id, created: true };
    },
    async recall({ query, limit, tags }) {
      const q = words(query);
      return facts
        .filter((f) => (tags ?? []).every((t) => f.tags.includes(t)))
        .map((f) => ({ ...f, score: [...words(f.content)].filter((w) => q.has(w)).length }))
        .filter((f) => f.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}

let ws: string;
beforeAll(async () => {
  ws = await fs.mkdtemp(path.join(os.tmpdir(), "phyl-mem-"));
});
afterAll(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

describe("remember and recall", () => {
  it("are registered: remember writes (side effect), recall reads", () => {
    expect(builtinTools.remember).toBe(remember);
    expect(builtinTools.recall).toBe(recall);
    expect(remember.sideEffect).toBe(true);
    expect(recall.sideEffect).toBe(false);
  });

  it("remember stores a fact and merges an equal one", async () => {
    const memory = inMemoryAccess("t1");
    const first = await runToolDefinition(remember, { content: "  The staging server is staging.example.com  ", tags: ["servers"] }, { workspaceDir: ws, memory });
    expect(JSON.parse(first.output)).toEqual({ id: "fact_1", created: true });
    expect(memory.facts[0]).toMatchObject({ content: "The staging server is staging.example.com", tags: ["servers"], source: { threadId: "t1" } });
    const again = await runToolDefinition(remember, { content: "The staging server is staging.example.com" }, { workspaceDir: ws, memory });
    expect(JSON.parse(again.output)).toEqual({ id: "fact_1", created: false });
  });

  it("recall returns the best facts first, filtered by tags, at most limit", async () => {
    const memory = inMemoryAccess("t1");
    for (const [content, tags] of [
      ["The staging server is staging.example.com", ["servers"]],
      ["The production server is prod.example.com", ["servers", "prod"]],
      ["Alice likes tea", []],
    ] as const) {
      await memory.remember({ content, tags: [...tags] });
    }
    const all = JSON.parse((await runToolDefinition(recall, { query: "staging server" }, { workspaceDir: ws, memory })).output);
    expect(all.facts.map((f: RecalledFact) => f.content)).toEqual(["The staging server is staging.example.com", "The production server is prod.example.com"]);
    const one = JSON.parse((await runToolDefinition(recall, { query: "server", limit: 1 }, { workspaceDir: ws, memory })).output);
    expect(one.facts).toHaveLength(1);
    const tagged = JSON.parse((await runToolDefinition(recall, { query: "server", tags: ["prod"] }, { workspaceDir: ws, memory })).output);
    expect(tagged.facts.map((f: RecalledFact) => f.id)).toEqual(["fact_2"]);
  });

  it("are off without memory, and say how to turn it on", async () => {
    for (const [tool, input] of [
      [remember, { content: "x" }],
      [recall, { query: "x" }],
    ] as const) {
      const r = await runToolDefinition(tool, input, { workspaceDir: ws });
      expect(r.errorCode).toBe("memory_off");
      expect(r.output).toContain("Memory is off for this flow");
      expect(r.output).toContain("Flow settings");
    }
  });

  it("validate their input", async () => {
    const memory = inMemoryAccess("t1");
    const bad = [
      [remember, { content: "" }],
      [remember, { content: "x".repeat(2001) }],
      [remember, { content: "x", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }],
      [remember, { content: "x", tags: ["two words"] }],
      [recall, { query: "x", limit: 11 }],
      [recall, { query: "x", limit: 0 }],
      [recall, { query: "   " }],
    ] as const;
    for (const [tool, input] of bad) {
      expect((await runToolDefinition(tool, input, { workspaceDir: ws, memory })).errorCode, JSON.stringify(input).slice(0, 60)).toBe("invalid_input");
    }
    expect(memory.facts).toHaveLength(0);
  });
});
