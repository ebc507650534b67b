import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "./same-origin";

/** The cross-site check of cookie requests (docs/security.md "Cross-site requests"). */
describe("crossSiteRefusal", () => {
  const req = (method: string, headers: Record<string, string>, body?: string) =>
    new Request("http://app.example.com/api/workspaces/w/members", { method, headers: { host: "app.example.com", ...headers }, ...(body === undefined ? {} : { body }) });
  const reason = (r: Request) => crossSiteRefusal(r)?.reason ?? null;

  it("lets the app's own JSON writes through, by Sec-Fetch-Site or by Origin", () => {
    expect(reason(req("POST", { "sec-fetch-site": "same-origin", "content-type": "application/json" }, "{}"))).toBeNull();
    expect(reason(req("PATCH", { origin: "http://app.example.com", "content-type": "application/merge-patch+json" }, "{}"))).toBeNull();
    expect(reason(req("DELETE", { origin: "https://app.example.com" }))).toBeNull();
    expect(reason(req("POST", { origin: "https://app.example.com", "x-forwarded-host": "app.example.com", host: "127.0.0.1:3000" }))).toBeNull();
  });

  it("refuses writes from another site, a sibling subdomain, or Origin null", () => {
    expect(reason(req("POST", { "sec-fetch-site": "cross-site", "content-type": "application/json" }, "{}"))).toBe("cross_origin");
    expect(reason(req("POST", { "sec-fetch-site": "same-site", origin: "https://x.example.com", "content-type": "application/json" }, "{}"))).toBe("cross_origin");
    expect(reason(req("PUT", { origin: "https://evil.example.net", "content-type": "application/json" }, "{}"))).toBe("cross_origin");
    expect(reason(req("DELETE", { origin: "null" }))).toBe("cross_origin");
    expect(reason(req("POST", { origin: "not a url" }))).toBe("cross_origin");
  });

  it("refuses a body that is not declared JSON (what a form can send)", () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      expect(crossSiteRefusal(req("POST", { "content-type": type }, "{}"))?.status).toBe(415);
    }
    expect(reason(req("POST", {}, "{}"))).toBe("not_json");
  });

  it("never refuses reads", () => {
    expect(reason(req("GET", { origin: "https://evil.example.net", "sec-fetch-site": "cross-site" }))).toBeNull();
    expect(reason(req("HEAD", { "sec-fetch-site": "cross-site" }))).toBeNull();
  });
});
