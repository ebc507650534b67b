import { describe, expect, it } from "vitest";
import { piecesOf, placePiece, placeStepText } from "./live-pieces";

/** Live text pieces placed by offset (docs/durability.md "Live streams"). */
describe("live text pieces", () => {
  it("places a piece at the end, adds only the new end of an overlap, nothing for a repeat", () => {
    expect(placePiece("", 0, "Hello")).toBe("Hello");
    expect(placePiece("Hello", 5, " there")).toBe(" there");
    expect(placePiece("Hello there", 0, "Hello there friend")).toBe(" friend");
    expect(placePiece("Hello there", 6, "there")).toBe("");
    expect(placePiece("Hello there", 0, "Hello")).toBe("");
  });

  it("refuses a piece after a gap, and ignores a malformed offset", () => {
    expect(placePiece("Hello", 6, "there")).toBeNull();
    expect(placePiece("", 3, "lo")).toBeNull();
    expect(placePiece("Hello", -1, "x")).toBe("");
    expect(placePiece("Hello", 1.5, "x")).toBe("");
  });

  it("splits a text into pieces with their offsets, never cutting a surrogate pair", () => {
    expect(piecesOf("abcdefg", 0, 3)).toEqual([
      { at: 0, text: "abc" },
      { at: 3, text: "def" },
      { at: 6, text: "g" },
    ]);
    expect(piecesOf("abcdefg", 5, 3)).toEqual([{ at: 5, text: "fg" }]);
    expect(piecesOf("abc", 3, 3)).toEqual([]);
    const pieces = piecesOf("ab😀cd", 0, 3);
    expect(pieces).toEqual([
      { at: 0, text: "ab" },
      { at: 2, text: "😀c" },
      { at: 5, text: "d" },
    ]);
    expect(pieces.map((p) => p.text).join("")).toBe("ab😀cd");
    expect(() => piecesOf("abc", 0, 1)).toThrow(RangeError);
  });

  it("reassembles a text from pieces in any mix of repeats and overlaps, in order, without a duplicated char", () => {
    const text = "The quick brown fox jumps over the lazy dog, twice over.";
    let held = "";
    const arrivals = [...piecesOf(text, 0, 7).slice(0, 3), ...piecesOf(text, 0, 11), ...piecesOf(text, 14, 5)];
    for (const p of arrivals) held += placePiece(held, p.at, p.text) ?? "";
    expect(held).toBe(text);
  });

  it("holds a step's text per model call: a new call starts over at offset 0, a piece further on waits", () => {
    let held = placeStepText(undefined, "step-s1-1-2", 0, "Reading");
    held = placeStepText(held, "step-s1-1-2", 7, " notes");
    expect(held).toEqual({ id: "step-s1-1-2", text: "Reading notes" });
    expect(placeStepText(held, "step-s1-1-2", 0, "Reading")).toBe(held);
    expect(placeStepText(held, "step-s1-1-2", 20, "x")).toBe(held);
    expect(placeStepText(held, "step-s1-1-4", 3, "late")).toBe(held);
    expect(placeStepText(held, "step-s1-1-4", 0, "Now")).toEqual({ id: "step-s1-1-4", text: "Now" });
    expect(placeStepText(undefined, "step-s1-1-2", 4, "x")).toBeUndefined();
  });
});
