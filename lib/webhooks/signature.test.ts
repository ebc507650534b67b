import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, secretKey, signWebhook } from "./signature";

describe("webhook signatures (Standard Webhooks)", () => {
  it("a secret is whsec_ and the base64 of 32 random bytes, new each time", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it("signs <id>.<timestamp>.<body> with the decoded secret and sends unix seconds", () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    const body = '{"type":"run.finished"}';
    const h = signWebhook(secret, "msg_1", body, 1_700_000_000_999);
    expect(h["webhook-id"]).toBe("msg_1");
    expect(h["webhook-timestamp"]).toBe("1700000000");
    const expected = createHmac("sha256", Buffer.alloc(32, 7)).update(`msg_1.1700000000.${body}`).digest("base64");
    expect(h["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("matches the Standard Webhooks reference vector", () => {
    // From the specification's test suite (standard-webhooks, "verify" examples).
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = '{"test": 2432232314}';
    const h = signWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", body, 1_614_265_330_000);
    expect(h["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});
