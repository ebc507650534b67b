import { describe, expect, it } from "vitest";
import { jsonDepthOverflow } from "./json-depth";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

describe("jsonDepthOverflow", () => {
  it("accepts nesting up to the limit and points at the first bracket past it", () => {
    expect(jsonDepthOverflow(nested(64), 64)).toBe(-1);
    expect(jsonDepthOverflow(nested(65), 64)).toBe(64);
    expect(jsonDepthOverflow('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(-1);
    expect(jsonDepthOverflow('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(13);
  });

  it("does not count brackets inside strings, whatever their escapes", () => {
    expect(jsonDepthOverflow(JSON.stringify({ s: "[[[[{{{{" }), 1)).toBe(-1);
    expect(jsonDepthOverflow(JSON.stringify({ s: 'quote " then [[[[' }), 1)).toBe(-1);
    expect(jsonDepthOverflow(JSON.stringify({ s: "backslash \\", t: "[[[[" }), 1)).toBe(-1);
    expect(jsonDepthOverflow(JSON.stringify(['\\\\\\"[[[']), 1)).toBe(-1);
  });

  it("scans 10,000 levels and a 5 MB text without recursion, in linear time", () => {
    expect(jsonDepthOverflow(nested(10_000), 64)).toBe(64);
    const big = JSON.stringify({ s: "x".repeat(5_000_000) });
    const t = performance.now();
    expect(jsonDepthOverflow(big, 64)).toBe(-1);
    expect(performance.now() - t).toBeLessThan(1_000);
  });

  it("counts only, leaving validity to JSON.parse (unbalanced text is not an error here)", () => {
    expect(jsonDepthOverflow("]]]][", 1)).toBe(-1);
    expect(jsonDepthOverflow('"unterminated [[[[', 1)).toBe(-1);
  });
});
