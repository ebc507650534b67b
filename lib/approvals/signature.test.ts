import { describe, expect, it } from "vitest";
import { type ChallengeFields, signChallenge, verifyChallenge } from "./signature";

const secret = "s".repeat(32);
const fields: ChallengeFields = {
  id: "appr_123456",
  threadId: "thread_1",
  userId: "user_1",
  toolName: "write_file",
  argsHash: "a".repeat(64),
  createdAt: 1_700_000_000_000,
  expiresAt: 1_700_000_900_000,
};

describe("approval challenge signature (HMAC-SHA256)", () => {
  it("verifies its own token", () => {
    const token = signChallenge(secret, fields);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyChallenge(secret, fields, token)).toBe(true);
  });

  it.each(Object.keys(fields) as (keyof ChallengeFields)[])("refuses the token when %s changes", (key) => {
    const token = signChallenge(secret, fields);
    const value = fields[key];
    const changed = { ...fields, [key]: typeof value === "number" ? value + 1 : `${value}x` };
    expect(verifyChallenge(secret, changed, token)).toBe(false);
  });

  it("refuses forged, truncated and other-secret tokens", () => {
    const token = signChallenge(secret, fields);
    expect(verifyChallenge(secret, fields, token.slice(0, -1))).toBe(false);
    expect(verifyChallenge(secret, fields, `${token}A`)).toBe(false);
    expect(verifyChallenge(secret, fields, signChallenge("t".repeat(32), fields))).toBe(false);
    expect(verifyChallenge(secret, fields, "")).toBe(false);
  });

  it("refuses short secrets", () => {
    expect(() => signChallenge("short", fields)).toThrow(/32 bytes/);
  });
});
