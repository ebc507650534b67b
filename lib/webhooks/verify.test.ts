import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook } from "./signature";
import { verifyWebhook } from "./verify";

const secret = newWebhookSecret();
const body = JSON.stringify({ id: "evt_1", type: "approval.required", data: { approval_id: "apv_1" } });
const now = Date.UTC(2026, 10, 24, 12);

describe("verifyWebhook", () => {
  it("accepts what signWebhook sent, with headers as an object (any case) or a Headers", () => {
    const h = signWebhook(secret, "dlv_1", body, now);
    expect(verifyWebhook(secret, h, body, { nowMs: now })).toEqual({ ok: true });
    expect(verifyWebhook(secret, { "Webhook-Id": h["webhook-id"], "WEBHOOK-TIMESTAMP": h["webhook-timestamp"], "webhook-signature": h["webhook-signature"] }, body, { nowMs: now })).toEqual({
      ok: true,
    });
    expect(verifyWebhook(secret, new Headers({ ...h }), body, { nowMs: now })).toEqual({ ok: true });
  });

  it("accepts one good signature among several (a rotated secret sends two)", () => {
    const h = signWebhook(secret, "dlv_1", body, now);
    const other = signWebhook(newWebhookSecret(), "dlv_1", body, now)["webhook-signature"];
    expect(verifyWebhook(secret, { ...h, "webhook-signature": `${other} ${h["webhook-signature"]}` }, body, { nowMs: now })).toEqual({ ok: true });
  });

  it("refuses a tampered body, another id, a wrong secret", () => {
    const h = signWebhook(secret, "dlv_1", body, now);
    expect(verifyWebhook(secret, h, body.replace("apv_1", "apv_2"), { nowMs: now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(secret, { ...h, "webhook-id": "dlv_2" }, body, { nowMs: now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(newWebhookSecret(), h, body, { nowMs: now })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses a timestamp outside the replay window either way, and a changed timestamp", () => {
    const old = signWebhook(secret, "dlv_1", body, now - 301_000);
    expect(verifyWebhook(secret, old, body, { nowMs: now })).toEqual({ ok: false, reason: "timestamp_too_old" });
    const future = signWebhook(secret, "dlv_1", body, now + 301_000);
    expect(verifyWebhook(secret, future, body, { nowMs: now })).toEqual({ ok: false, reason: "timestamp_too_new" });
    // Inside a wider window it is fine; re-dating a message breaks its signature.
    expect(verifyWebhook(secret, old, body, { nowMs: now, toleranceSec: 600 })).toEqual({ ok: true });
    expect(verifyWebhook(secret, { ...old, "webhook-timestamp": String(Math.floor(now / 1000)) }, body, { nowMs: now })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses missing headers, a non-numeric timestamp and signatures of another version or length", () => {
    const h = signWebhook(secret, "dlv_1", body, now);
    expect(verifyWebhook(secret, { "webhook-id": "dlv_1" }, body, { nowMs: now })).toEqual({ ok: false, reason: "missing_headers" });
    expect(verifyWebhook(secret, { ...h, "webhook-timestamp": "12e3" }, body, { nowMs: now })).toEqual({ ok: false, reason: "bad_timestamp" });
    const value = h["webhook-signature"].slice(3);
    expect(verifyWebhook(secret, { ...h, "webhook-signature": `v2,${value}` }, body, { nowMs: now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifyWebhook(secret, { ...h, "webhook-signature": "v1,AAAA" }, body, { nowMs: now })).toEqual({ ok: false, reason: "bad_signature" });
  });
});
