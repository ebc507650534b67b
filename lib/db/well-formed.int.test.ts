import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./test-db";
import { wellFormedDeep } from "./well-formed";

/**
 * Text from outside the HTTP boundary (an MCP server's answer, a model's output) may hold a
 * lone UTF-16 surrogate; storing it must neither crash nor lose the rest of the text
 * (docs/security.md "Input limits").
 */
describe("a lone surrogate from a hostile tool or model cannot crash a write", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t?.cleanup());

  it("stores a user whose name holds lone surrogates, each replaced by U+FFFD, and finds it by that name", async () => {
    const name = "tool said \uD800 and \uDFFF then \uD83D\uDE00";
    const u = await t.db.user.create({ data: { email: "surrogate@test.dev", name } });
    expect(u.name).toBe("tool said \uFFFD and \uFFFD then \uD83D\uDE00");
    expect(await t.db.user.count({ where: { name } })).toBe(1);
  });

  it("stores a NUL as U+FFFD (PostgreSQL refuses NUL in text), and a lookup by an id holding NUL finds nothing instead of failing", async () => {
    const u = await t.db.user.create({ data: { email: "nul@test.dev", name: "a\u0000b" } });
    expect(u.name).toBe("a\uFFFDb");
    expect(await t.db.user.findUnique({ where: { id: "x\u0000y" } })).toBeNull();
    expect(await t.db.user.count({ where: { name: "a\u0000b" } })).toBe(1);
  });

  it("repairs strings inside nested arguments and transactions too", async () => {
    const created = await t.db.$transaction(async (tx) =>
      tx.workspace.create({
        data: { name: "ws \uDC00", members: { create: { role: "owner", user: { create: { email: "nested@test.dev", name: "x\uD800" } } } } },
        include: { members: { include: { user: true } } },
      }),
    );
    expect(created.name).toBe("ws \uFFFD");
    expect(created.members[0]?.user.name).toBe("x\uFFFD");
  });
});

describe("wellFormedDeep", () => {
  it("returns the same object when nothing needs repair, and leaves Dates and buffers alone", () => {
    const at = new Date(0);
    const bytes = new Uint8Array([1, 2]);
    const args = { where: { id: "a" }, data: { at, bytes, list: ["x", { y: "z" }] } };
    expect(wellFormedDeep(args)).toBe(args);
    const fixed = wellFormedDeep({ data: { at, bytes, list: ["\uD800"] } });
    expect(fixed.data.at).toBe(at);
    expect(fixed.data.bytes).toBe(bytes);
    expect(fixed.data.list).toEqual(["\uFFFD"]);
  });
});
