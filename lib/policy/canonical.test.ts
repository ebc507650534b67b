import { describe, expect, it } from "vitest";
import { canonicalArgs, canonicalJson, sha256Hex } from "./canonical";

describe("canonicalJson (RFC 8785)", () => {
  it("sorts keys and removes whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 2], c: "x" } })).toBe('{"a":{"c":"x","d":[3,2]},"b":1}');
  });

  it("serializes numbers as ECMAScript does (RFC 8785 3.2.2.3)", () => {
    expect(canonicalJson({ n: 1.0, e: 1e21, f: 0.000001, g: -0 })).toBe('{"e":1e+21,"f":0.000001,"g":0,"n":1}');
  });

  it("sorts keys by UTF-16 code units", () => {
    expect(canonicalJson({ "\u00e9": 1, z: 2, A: 3 })).toBe('{"A":3,"z":2,"\u00e9":1}');
  });

  it("gives RFC 8785's own example output (3.2.2, 3.2.3)", () => {
    const input = String.raw`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`;
    expect(canonicalJson(JSON.parse(input))).toBe(String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`);
  });

  it("refuses a lone surrogate and a nesting too deep to serialize, as TypeError", () => {
    expect(() => canonicalJson({ s: "\ud800" })).toThrow();
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(TypeError);
  });

  it("refuses values that are not JSON", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
  });
});

describe("canonicalArgs", () => {
  it("gives the same hash for the same arguments in any key order", () => {
    const a = canonicalArgs({ path: "summary.md", content: "hi" });
    const b = canonicalArgs({ content: "hi", path: "summary.md" });
    expect(a).toEqual(b);
    expect(a.hash).toBe(sha256Hex('{"content":"hi","path":"summary.md"}'));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives a different hash when any argument changes", () => {
    const a = canonicalArgs({ path: "summary.md", content: "hi" });
    const b = canonicalArgs({ path: "summary.md", content: "hi " });
    expect(a.hash).not.toBe(b.hash);
  });

  it("matches the known SHA-256 of the empty string", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
