import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README and docs/ link to each other (docs/testing.md "Docs links"): every relative link
 * and `#anchor` in README.md, SECURITY.md and docs/*.md must name a file that exists and, with
 * an anchor, a heading of that file. The README stays a newcomer's page that points to every
 * docs/ page.
 */

const root = path.resolve(__dirname, "..");
const docsDir = path.join(root, "docs");
const pages = [
  "README.md",
  "SECURITY.md",
  ...readdirSync(docsDir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Markdown without fenced code blocks (indented ones too). */
function withoutFences(markdown: string): string {
  return markdown.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, "");
}

/** Markdown without fenced code blocks and inline code spans (links there are examples). */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a page offers: its headings' slugs, numbered -1, -2… when repeated, as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  // Headings keep their code spans: "## `search_files`" is #search_files.
  for (const m of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The targets of a page's Markdown links and images (`[text](target)`, `![alt](target "title")`). */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? "");
}

/** What is wrong with one link of `page` (a path from the root), or null when it resolves. */
function brokenLink(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:: not ours to check
  const [file = "", anchor] = target.split("#", 2);
  const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(file)));
  if (resolved.startsWith("..")) return `${target}: leaves the repository`;
  const full = path.join(root, resolved);
  if (existsSync(full) && statSync(full).isDirectory()) return anchor === undefined ? null : `${target}: an anchor into a folder`;
  let text: string;
  try {
    text = readFileSync(full, resolved.endsWith(".md") ? "utf8" : undefined).toString();
  } catch {
    return `${target}: no file ${resolved}`;
  }
  if (anchor === undefined) return null;
  if (!resolved.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
  return anchorsOf(text).has(anchor) ? null : `${target}: ${resolved} has no heading #${anchor}`;
}

describe("docs links", () => {
  it("the link checker itself: slugs, repeated headings, code ignored", () => {
    expect(slug("Retries, limits and eviction")).toBe("retries-limits-and-eviction");
    expect(slug("Verifying a webhook (Node, no dependencies)")).toBe("verifying-a-webhook-node-no-dependencies");
    expect(slug("`run_javascript` and MCP")).toBe("run_javascript-and-mcp");
    expect([...anchorsOf("# A\n\n  ```sh\n  # not a heading\n  ```\n\n## `search_files`\n")]).toEqual(["a", "search_files"]);
    expect([...anchorsOf("# A\n## B\n## B\n```\n# not a heading\n```\n")]).toEqual(["a", "b", "b-1"]);
    expect(linksOf('[a](x.md) ![i](y.png "t") `[c](z.md)`\n```\n[d](w.md)\n```\n[e](https://e.com)')).toEqual(["x.md", "y.png", "https://e.com"]);
    expect(brokenLink("docs/api.md", "runs.md#status-vocabulary")).toBeNull();
    expect(brokenLink("docs/api.md", "runs.md#no-such-heading")).toMatch(/no heading/);
    expect(brokenLink("docs/api.md", "nowhere.md")).toMatch(/no file/);
    expect(brokenLink("README.md", "docs/")).toBeNull();
  });

  it.each(pages)("every relative link and anchor of %s resolves", (page) => {
    const broken = linksOf(readFileSync(path.join(root, page), "utf8"))
      .map((target) => brokenLink(page, target))
      .filter((b): b is string => b !== null);
    expect(broken).toEqual([]);
  });

  it("the README links every docs/ page, and stays a newcomer's page (reference material goes to docs/)", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const linked = new Set(linksOf(readme).map((t) => t.split("#")[0]));
    const unlinked = pages.filter((p) => p.startsWith("docs/") && !linked.has(p));
    expect(unlinked, 'add a line for each to the README\'s "Where to read next"').toEqual([]);
    expect(readme.split("\n").length, "the README is over 200 lines: move reference material into docs/").toBeLessThanOrEqual(200);
  });
});
