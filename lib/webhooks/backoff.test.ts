import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";

describe("webhook retry backoff", () => {
  it("waits 5 s, 30 s, 2 min, 10 min, 1 h (no jitter at the middle) and gives up after 6 attempts", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 5_000, mid))).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000]);
    expect(MAX_ATTEMPTS).toBe(6);
    expect(retryDelayMs(6, 5_000, mid)).toBeNull();
    expect(retryDelayMs(7, 5_000, mid)).toBeNull();
  });

  it("spreads each delay by ±20 % and scales with the base", () => {
    expect(retryDelayMs(1, 5_000, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, 5_000, () => 0.999_999)).toBe(6_000);
    expect(retryDelayMs(2, 50, () => 0.5)).toBe(300);
  });
});
