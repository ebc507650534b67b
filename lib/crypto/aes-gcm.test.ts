import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, keyFromSecret } from "./aes-gcm";

/** AES-256-GCM sealing of provider keys. */
describe("aes-gcm", () => {
  const key = keyFromSecret("server key for tests");

  it("round-trips, with a fresh IV each time", () => {
    const a = encryptSecret("sk-live-123456", key);
    const b = encryptSecret("sk-live-123456", key);
    expect(a).not.toBe(b);
    expect(a).not.toContain("sk-live");
    expect(decryptSecret(a, key)).toBe("sk-live-123456");
  });

  it.each([
    ["the IV", 0],
    ["the ciphertext", 14],
    ["the tag", -1],
  ])("refuses a value whose %s was altered", (_what, at) => {
    const raw = Buffer.from(encryptSecret("sk-live-123456", key), "base64url");
    const i = at < 0 ? raw.length + at : at;
    raw[i] = (raw[i] ?? 0) ^ 0x01;
    expect(() => decryptSecret(raw.toString("base64url"), key)).toThrow(/cannot be decrypted/);
  });

  it("refuses the wrong key and truncated values", () => {
    const sealed = encryptSecret("sk-live-123456", key);
    expect(() => decryptSecret(sealed, keyFromSecret("another key"))).toThrow(/cannot be decrypted/);
    expect(() => decryptSecret(sealed.slice(0, 10), key)).toThrow(/truncated/);
  });
});
