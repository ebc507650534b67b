import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";

/**
 * Browser clients of the LangGraph Platform API (Agent Inbox, useStream) run on another
 * origin: the API answers their preflights and lets them read the run headers, without ever
 * allowing credentials (docs/langgraph-api.md#cors). The rest of the app stays same-origin.
 */
describe("CORS of the LangGraph API", () => {
  let s: TestServer;
  let key: string;
  const origin = "https://inbox.example.test";

  beforeAll(async () => {
    s = await startServer();
    const [a] = s.users;
    if (!a) throw new Error("users");
    const alice = await signIn(s.url, a.email, a.password);
    key = ((await (await alice.post("/api/keys", { name: "browser" })).json()) as { key: string }).key;
  });
  afterAll(async () => s?.stop());

  it("answers a preflight for a keyed JSON request from another origin, never allowing credentials", async () => {
    const res = await fetch(`${s.url}/api/langgraph/threads/search`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-api-key" },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/x-api-key/);
    expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("lets the page read an answer and the run headers it needs, and keeps the rest of the app same-origin", async () => {
    const res = await fetch(`${s.url}/api/langgraph/threads/search`, { method: "POST", headers: { origin, "content-type": "application/json", "x-api-key": key }, body: "{}" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toMatch(/content-location/);
    const app = await fetch(`${s.url}/api/approvals`, { headers: { origin, "x-api-key": key } });
    expect(app.status).toBe(200);
    expect(app.headers.get("access-control-allow-origin")).toBeNull();
  });
});
