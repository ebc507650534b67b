import { describe, expect, it } from "vitest";
import { relativeText } from "./relative-time";

const NOW = Date.UTC(2026, 4, 1, 12, 0, 0);
const ago = (ms: number) => new Date(NOW - ms);

describe("relativeText", () => {
  it("reads the last few seconds as just now, either way", () => {
    expect(relativeText(ago(10_000), NOW)).toBe("just now");
    expect(relativeText(ago(-10_000), NOW)).toBe("just now");
  });

  it("counts minutes, then hours up to two days, then days", () => {
    expect(relativeText(ago(50_000), NOW)).toBe("1 min ago");
    expect(relativeText(ago(5 * 60_000), NOW)).toBe("5 min ago");
    expect(relativeText(ago(3 * 3_600_000), NOW)).toBe("3 h ago");
    expect(relativeText(ago(47 * 3_600_000), NOW)).toBe("47 h ago");
    expect(relativeText(ago(3 * 86_400_000), NOW)).toBe("3 d ago");
  });

  it("says 'in' for a moment still to come", () => {
    expect(relativeText(ago(-5 * 60_000), NOW)).toBe("in 5 min");
    expect(relativeText(ago(-3 * 3_600_000), NOW)).toBe("in 3 h");
  });
});
