import { describe, expect, it } from "vitest";
import { ArgMatcher } from "../flow/schema";
import { canonicalJson } from "./canonical";
import { matchArgument, REGEX_MAX_INPUT } from "./match-argument";

/** Argument matchers of policy rules (docs/architecture.md#policies), each kind with near misses and tricks. */

/** Parses the matcher with the flow schema (as a stored document would be) and runs it on canonical args. */
function holds(matcher: unknown, args: unknown): boolean {
  return matchArgument(ArgMatcher.parse(matcher), JSON.parse(canonicalJson(args)));
}

describe("path_glob", () => {
  const docs = { kind: "path_glob", field: "path", pattern: "docs/**" };
  it.each([
    ["docs/a.md", true],
    ["docs/deep/er/b.txt", true],
    ["./docs/a.md", true],
    ["docs//a.md", true],
    ["docs/.env", true], // dotfiles are covered: a BLOCKED `secrets/**` must not miss `secrets/.key`
    ["docs/../secrets.txt", false], // judged as secrets.txt
    ["docs/../docs/a.md", true], // judged as docs/a.md
    ["/etc/passwd", false],
    ["/docs/a.md", false], // absolute never matches
    ["../docs/a.md", false],
    ["docs/../../docs/a.md", false], // still climbs out after normalising
    ["docs/a.md\u0000.png", false],
    ["documents/a.md", false],
    ["DOCS/a.md", false],
  ])("docs/** vs %j: %s", (path, expected) => {
    expect(holds(docs, { path })).toBe(expected);
  });

  it("normalises before matching other globs too, and wants a string", () => {
    const anyMd = { kind: "path_glob", field: "path", pattern: "*.md" };
    expect(holds(anyMd, { path: "notes/../summary.md" })).toBe(true);
    expect(holds(anyMd, { path: "notes/summary.md" })).toBe(false);
    const everything = { kind: "path_glob", field: "path", pattern: "**" };
    expect(holds(everything, { path: "a/b/c" })).toBe(true);
    expect(holds(everything, { path: "/etc/passwd" })).toBe(false);
    expect(holds(everything, { path: ".." })).toBe(false);
    // Globs that could spell a climb out still never match one.
    for (const pattern of ["../**", "?./**", "..*/**", "[.][.]/**"]) {
      expect(holds({ kind: "path_glob", field: "path", pattern }, { path: "../secret" })).toBe(false);
      expect(holds({ kind: "path_glob", field: "path", pattern }, { path: "docs/../../secret" })).toBe(false);
    }
    expect(holds(everything, { path: 42 })).toBe(false);
    expect(holds(everything, { path: ["a"] })).toBe(false);
    expect(holds(everything, {})).toBe(false);
  });
});

describe("url_host", () => {
  const good = { kind: "url_host", field: "url", hosts: ["good.com", "*.good.org"] };
  it.each([
    ["https://good.com/", true],
    ["http://GOOD.com:8080/x", true], // hostname lower-cased, port ignored
    ["https://user:pw@good.com/", true], // userinfo ignored as URL does
    ["https://good.com./", true], // one trailing dot is the same host
    ["https://ｇｏｏｄ.com/", true], // WHATWG maps full-width letters
    ["http://good.com@evil.com/", false], // the host is evil.com
    ["http://evil.com/?good.com", false],
    ["http://evil.com/#good.com", false],
    ["http://evil.com\\@good.com/", false],
    ["http://good.com.evil.com/", false],
    ["http://good.com%2eevil.com/", false],
    ["http://sub.good.com/", false], // good.com is exact; only *.good.org takes subdomains
    ["https://a.good.org/", true],
    ["https://a.b.good.org/", true],
    ["https://good.org/", false], // *.good.org does not cover good.org itself
    ["https://evilgood.org/", false],
    ["good.com", false], // not a URL
    ["//good.com/", false],
    ["file:///etc/passwd", false],
    ["", false],
  ])("%j: %s", (url, expected) => {
    expect(holds(good, { url })).toBe(expected);
  });

  it("matches entries case-insensitively and reads nested fields", () => {
    const nested = { kind: "url_host", field: "request.url", hosts: ["Good.COM"] };
    expect(holds(nested, { request: { url: "https://good.com/a" } })).toBe(true);
    expect(holds(nested, { request: { url: 7 } })).toBe(false);
    expect(holds(nested, { request: "https://good.com/a" })).toBe(false);
  });
});

describe("number", () => {
  const over = (op: string, value: number) => ({ kind: "number", field: "amount", op, value });
  it.each([
    ["gt", 1000, 1000.01, true],
    ["gt", 1000, 1000, false],
    ["gte", 1000, 1000, true],
    ["lt", 0, -1, true],
    ["lt", 0, 0, false],
    ["lte", 0, 0, true],
    ["eq", 5, 5, true],
    ["eq", 5, 5.000001, false],
    ["neq", 5, 6, true],
    ["neq", 5, 5, false],
  ])("%s %d against %d: %s", (op, value, amount, expected) => {
    expect(holds(over(op, value), { amount })).toBe(expected);
  });

  it("wants a JSON number: a numeric string, boolean or null never matches", () => {
    expect(holds(over("gte", 1000), { amount: 1000 })).toBe(true);
    expect(holds(over("gte", 1000), { amount: "1000" })).toBe(false);
    expect(holds(over("neq", 1000), { amount: "1000" })).toBe(false);
    expect(holds(over("gte", 0), { amount: true })).toBe(false);
    expect(holds(over("lte", 0), { amount: null })).toBe(false);
  });

  it("reads array elements by index, and only canonical indexes", () => {
    const first = { kind: "number", field: "items.0.amount", op: "gt", value: 10 };
    expect(holds(first, { items: [{ amount: 11 }] })).toBe(true);
    expect(holds(first, { items: [{ amount: 9 }, { amount: 11 }] })).toBe(false);
    expect(holds(first, { items: { "0": { amount: 11 } } })).toBe(true); // an object key "0"
    expect(holds({ ...first, field: "items.00.amount" }, { items: [{ amount: 11 }] })).toBe(false);
    expect(holds({ ...first, field: "items.length" }, { items: [1] })).toBe(false);
  });

  it("never reads inherited properties", () => {
    expect(holds({ kind: "regex", field: "constructor.name", pattern: "Object" }, {})).toBe(false);
    expect(holds({ kind: "regex", field: "toString", pattern: "." }, {})).toBe(false);
  });
});

describe("regex", () => {
  const draft = { kind: "regex", field: "note", pattern: "^draft:" };
  it.each([
    [draft, "draft: hello", true],
    [draft, "Draft: hello", false],
    [{ ...draft, flags: "i" }, "Draft: hello", true],
    [draft, "final draft: hello", false],
    [{ kind: "regex", field: "note", pattern: "secret" }, "top secret", true],
    [{ kind: "regex", field: "note", pattern: "^\\d+$" }, "123", true],
    [{ kind: "regex", field: "note", pattern: "^\\d+$" }, "123\n", false],
  ])("%j on %j: %s", (matcher, note, expected) => {
    expect(holds(matcher, { note })).toBe(expected);
  });

  it("considers strings up to 10,000 chars; a longer one never matches", () => {
    const any = { kind: "regex", field: "note", pattern: "^a+$" };
    expect(holds(any, { note: "a".repeat(REGEX_MAX_INPUT) })).toBe(true);
    expect(holds(any, { note: "a".repeat(REGEX_MAX_INPUT + 1) })).toBe(false);
    expect(holds(any, { note: 1 })).toBe(false);
  });
});
