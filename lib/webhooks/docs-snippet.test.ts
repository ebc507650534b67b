import { afterEach, describe, expect, it, vi } from "vitest";
import { docsVerifySnippet } from "./docs-snippet";
import { newWebhookSecret, signWebhook } from "./signature";

/** The Node snippet of docs/webhooks.md, run as written, against what the sender signs. */
describe("the documented verification snippet", () => {
  const verify = docsVerifySnippet();
  const secret = newWebhookSecret();
  const body = '{"id":"evt_1","type":"run.failed","data":{"run_id":"r1"}}';
  afterEach(() => vi.useRealTimers());

  it("accepts a signed webhook, with one good signature among several", () => {
    const h = signWebhook(secret, "dlv_1", body);
    expect(verify(secret, h, body)).toBe(true);
    const other = signWebhook(newWebhookSecret(), "dlv_1", body)["webhook-signature"];
    expect(verify(secret, { ...h, "webhook-signature": `${other} ${h["webhook-signature"]}` }, body)).toBe(true);
  });

  it("refuses a tampered body, a wrong secret, a changed id or timestamp, missing headers", () => {
    const h = signWebhook(secret, "dlv_1", body);
    expect(verify(secret, h, body.replace("r1", "r2"))).toBe(false);
    expect(verify(newWebhookSecret(), h, body)).toBe(false);
    expect(verify(secret, { ...h, "webhook-id": "dlv_2" }, body)).toBe(false);
    expect(verify(secret, { ...h, "webhook-timestamp": String(Number(h["webhook-timestamp"]) - 1) }, body)).toBe(false);
    expect(verify(secret, { "webhook-id": "dlv_1", "webhook-timestamp": h["webhook-timestamp"] }, body)).toBe(false);
  });

  it("refuses a request older or newer than five minutes", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.UTC(2026, 10, 24, 12);
    vi.setSystemTime(t0);
    const h = signWebhook(secret, "dlv_1", body);
    vi.setSystemTime(t0 + 299_000);
    expect(verify(secret, h, body)).toBe(true);
    vi.setSystemTime(t0 + 301_000);
    expect(verify(secret, h, body)).toBe(false);
    vi.setSystemTime(t0 - 301_000);
    expect(verify(secret, h, body)).toBe(false);
  });
});
