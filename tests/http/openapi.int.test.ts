import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./client";
import { startServer, type TestServer } from "./server";

/**
 * The OpenAPI document over HTTP, from the built app: public (no session), JSON, cacheable,
 * a valid OpenAPI 3.1 document; and the reference page that renders it needs a session.
 */
describe("GET /api/openapi.json", () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.stop());

  it("answers a signed-out client with the OpenAPI 3.1 document as cacheable JSON", async () => {
    const res = await fetch(`${s.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.paths["/api/threads/{threadId}/stream"]?.post?.operationId).toBe("postThreadsByThreadIdStream");
    const validator = new Validator();
    expect((await validator.validate(doc as unknown as Record<string, unknown>)).valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("serves the reference page to a signed-in user, with a known operation, and sends others to sign in", async () => {
    const anon = await fetch(`${s.url}/api-reference`, { redirect: "manual" });
    expect([302, 303, 307]).toContain(anon.status);
    expect(anon.headers.get("location")).toMatch(/\/sign-in/);
    const [alice] = s.users;
    if (!alice) throw new Error("seeded users");
    const c = await signIn(s.url, alice.email, alice.password);
    const page = await c.fetch("/api-reference");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="operation-postThreads"');
    expect(html).toContain("/api/openapi.json");
  });
});
