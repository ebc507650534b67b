import { describe, expect, it } from "vitest";
import { z, ZodError } from "zod";
import { AppError } from "../errors";
import { readInput } from "./read-input";

const get = (url: string) => new Request(`http://localhost${url}`);

describe("readInput", () => {
  it("reads a route with no dynamic segment, which Next.js gives no params, as {} params", async () => {
    const Params = z.object({});
    expect((await readInput(get("/api/workspaces"), undefined, { params: Params })).params).toEqual({});
    expect((await readInput(get("/api/workspaces"), {}, { params: Params })).params).toEqual({});
    expect((await readInput(get("/api/workspaces"), { params: Promise.resolve(undefined) }, { params: Params })).params).toEqual({});
  });

  it("parses params and query with their schemas; the last value of a repeated key wins", async () => {
    const input = await readInput(
      get("/api/x?limit=5&limit=7&q=%E2%9C%93"),
      { params: Promise.resolve({ id: "abc" }) },
      {
        params: z.object({ id: z.string() }),
        query: z.object({ limit: z.coerce.number(), q: z.string() }),
      },
    );
    expect(input).toEqual({ params: { id: "abc" }, query: { limit: 7, q: "✓" }, body: undefined });
  });

  it("refuses a route param or query value with a lone surrogate with 422 naming it", async () => {
    const p = await readInput(get("/api/x"), { params: Promise.resolve({ threadId: "t\ud800" }) }, {}).catch((e: unknown) => e);
    expect(p).toBeInstanceOf(AppError);
    expect((p as AppError).status).toBe(422);
    expect((p as AppError).message).toMatch(/^threadId \(route params\)/);
  });

  it("turns a query that fails its schema into a ZodError naming the field", async () => {
    const err = await readInput(get("/api/x?status=maybe"), undefined, { query: z.object({ status: z.enum(["a", "b"]) }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZodError);
    expect((err as ZodError).issues[0]?.path).toEqual(["status"]);
  });

  it("reads the body only when a body schema is declared, within the route's byte cap", async () => {
    const body = JSON.stringify({ doc: "x".repeat(2_000_000) });
    const req = () => new Request("http://localhost/api/x", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect((await readInput(req(), undefined, {})).body).toBeUndefined();
    const over = await readInput(req(), undefined, { body: z.object({ doc: z.string() }) }).catch((e: unknown) => e);
    expect((over as AppError).status).toBe(413);
    const ok = await readInput(req(), undefined, { body: z.object({ doc: z.string() }), maxBodyBytes: 5_000_000 });
    expect(ok.body.doc).toHaveLength(2_000_000);
  });
});
