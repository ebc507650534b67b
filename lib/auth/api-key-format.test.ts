import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { apiKeyPrefix, hashApiKey, isApiKeyShaped, newApiKey } from "./api-key-format";

describe("API key format", () => {
  it("is phy_ and 32 random bytes in base64url, 47 characters", () => {
    const key = newApiKey();
    expect(key).toMatch(/^phy_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), "base64url")).toHaveLength(32);
  });

  it("differs every time", () => {
    const keys = new Set(Array.from({ length: 50 }, newApiKey));
    expect(keys.size).toBe(50);
  });

  it("is hashed as the SHA-256 hex of the whole key", () => {
    const key = "phy_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toBe(hashApiKey(`${key.slice(0, -1)}B`));
  });

  it("shows phy_ and the next 8 characters", () => {
    const key = newApiKey();
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
    expect(apiKeyPrefix(key)).toHaveLength(12);
  });

  it("recognises only the key shape", () => {
    expect(isApiKeyShaped(newApiKey())).toBe(true);
    for (const bad of ["", "phy_", "phy_short", `sk_${"A".repeat(43)}`, `phy_${"A".repeat(42)}`, `phy_${"A".repeat(44)}`, `phy_${"A".repeat(42)}=`, ` ${newApiKey()}`]) {
      expect(isApiKeyShaped(bad)).toBe(false);
    }
  });
});
