import { describe, expect, it } from "vitest";
import { formatBytes, formatChars } from "./format-size";

describe("formatBytes", () => {
  it("shows small files in bytes and larger ones in SI units with three significant digits", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(392)).toBe("392 B");
    expect(formatBytes(1870)).toBe("1.87 kB");
    expect(formatBytes(2_500_000)).toBe("2.5 MB");
  });

  it("shows nonsense sizes as nothing rather than as a negative or NaN size", () => {
    expect(formatBytes(-5)).toBe("0 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
  });
});

describe("formatChars", () => {
  it("spells the unit out, with thousands separators and a singular for one", () => {
    expect(formatChars(1869)).toBe("1,869 characters");
    expect(formatChars(1)).toBe("1 character");
    expect(formatChars(0)).toBe("0 characters");
    expect(formatChars(12_345_678)).toBe("12,345,678 characters");
  });
});
