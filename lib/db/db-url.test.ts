import { describe, expect, it, vi } from "vitest";

describe("dbUrlOf", () => {
  it("finds the URL a client was made on from another copy of the module (Next.js bundles one per route)", async () => {
    const first = await import("./db-url");
    vi.resetModules();
    const second = await import("./db-url");
    expect(second).not.toBe(first);
    const client = {};
    first.rememberDbUrl(client, "file:./app.db");
    expect(second.dbUrlOf(client)).toBe("file:./app.db");
    expect(second.dbUrlOf({})).toBeUndefined();
  });
});
