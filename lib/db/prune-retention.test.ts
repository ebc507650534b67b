import { describe, expect, it } from "vitest";
import { RetentionHours, retentionMs } from "./prune-retention";

describe("CHECKPOINT_RETENTION_HOURS", () => {
  it("defaults to 24 hours, takes decimals and 0, and off turns pruning off", () => {
    expect(RetentionHours.parse(undefined)).toBe(24);
    expect(RetentionHours.parse("0.5")).toBe(0.5);
    expect(RetentionHours.parse("0")).toBe(0);
    expect(RetentionHours.parse(" OFF ")).toBeNull();
    expect(retentionMs(0.5)).toBe(1_800_000);
    expect(retentionMs(null)).toBeNull();
  });

  it("refuses a negative or non-numeric value with a message naming the variable", () => {
    for (const bad of ["-1", "soon", "", "Infinity"]) {
      const r = RetentionHours.safeParse(bad);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toContain("CHECKPOINT_RETENTION_HOURS");
    }
  });
});
