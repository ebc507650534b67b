import { describe, expect, it } from "vitest";
import { matchesMetadata, parseMetadata } from "./metadata";

describe("matchesMetadata", () => {
  it("matches when every filter key is present with an equal value", () => {
    expect(matchesMetadata({ a: 1, b: { c: [1, 2] }, d: "x" }, { a: 1, b: { c: [1, 2] } })).toBe(true);
    expect(matchesMetadata({ a: 1 }, { a: 2 })).toBe(false);
    expect(matchesMetadata({ a: 1 }, { b: undefined })).toBe(false);
    expect(matchesMetadata({ a: 1 }, undefined)).toBe(true);
  });
  it("reads a corrupt or non-object column as {}", () => {
    expect(parseMetadata('{"a":1}')).toEqual({ a: 1 });
    expect(parseMetadata("[1]")).toEqual({});
    expect(parseMetadata("{")).toEqual({});
  });
});
