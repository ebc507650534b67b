import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `semver` is npm's own range grammar; it is in the tree through Next.js and Prisma.
const semver = createRequire(import.meta.url)("semver") as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const root = path.resolve(__dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>;
};

/**
 * Packages locked at a version whose `engines.node` leaves out the Node versions package.json
 * declares, kept knowingly: the AI SDK 7 line declares Node 22, runs and is tested on Node 20
 * (the version CI runs), and has no Node 20 release short of the previous major.
 * README.md, "Run it", says so. Nothing may join this list without the same reason.
 */
const KNOWN_NODE_22 = new Set([
  "ai",
  "@ai-sdk/anthropic",
  "@ai-sdk/gateway",
  "@ai-sdk/mcp",
  "@ai-sdk/openai",
  "@ai-sdk/openai-compatible",
  "@ai-sdk/provider",
  "@ai-sdk/provider-utils",
  "@ai-sdk/react",
]);

describe("package engines", () => {
  const lowest = semver.minVersion(manifest.engines.node)?.version ?? "";

  it("package.json declares a lowest Node version", () => {
    expect(lowest).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("every locked package (but the listed AI SDK ones) supports the lowest declared Node", () => {
    const refusing: string[] = [];
    for (const [at, entry] of Object.entries(lock.packages)) {
      const node = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!at || !node || entry.optional) continue;
      const name = at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length);
      if (KNOWN_NODE_22.has(name)) continue;
      if (!semver.satisfies(lowest, node)) refusing.push(`${name}@${entry.version} wants node ${node}`);
    }
    expect(refusing).toEqual([]);
  });

  it("canonicalize, which hashes every approved call's arguments, supports the declared Node", () => {
    const entry = lock.packages["node_modules/canonicalize"];
    const node = !Array.isArray(entry?.engines) ? entry?.engines?.node : undefined;
    expect(node && semver.satisfies(lowest, node)).toBe(true);
  });
});
