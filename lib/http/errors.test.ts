import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client";
import { AppError } from "../errors";
import { setLogDestination } from "../log";
import { errorResponse } from "./errors";

const known = (code: string) => new Prisma.PrismaClientKnownRequestError(`Invalid invocation: ${code}`, { code, clientVersion: "6.19.3" });

async function answer(err: unknown): Promise<{ status: number; error: { code: string; reason: string; message: string; issues?: unknown[] } }> {
  const res = errorResponse(err);
  return { status: res.status, ...((await res.json()) as { error: { code: string; reason: string; message: string } }) };
}

describe("errorResponse", () => {
  let logged: { msg: string; err?: { message?: string } }[] = [];
  let restore = () => {};
  beforeEach(() => {
    logged = [];
    restore = setLogDestination({ write: (line: string) => void logged.push(JSON.parse(line)) }, { level: "info" });
  });
  afterEach(() => restore());

  it("maps Prisma's unique violation to 409, a missing row to 404 and a foreign key failure to 409, without Prisma's text", async () => {
    for (const [code, status] of [
      ["P2002", 409],
      ["P2025", 404],
      ["P2003", 409],
      ["P2001", 404],
    ] as const) {
      const res = await answer(known(code));
      expect(res.status, code).toBe(status);
      expect(res.error.message).not.toContain("Invalid invocation");
    }
  });

  it("keeps other Prisma errors and unknown throws a 500 that reveals nothing", async () => {
    const res = await answer(known("P1001"));
    expect(res.status).toBe(500);
    expect(res.error.message).not.toContain("P1001");
    expect((await answer(new TypeError("x is undefined"))).status).toBe(500);
    expect(logged.filter((l) => l.msg === "unhandled error").map((l) => l.err?.message)).toEqual(["Invalid invocation: P1001", "x is undefined"]);
  });

  it("answers a ZodError with 422 and one issue per field", async () => {
    const parsed = z.object({ a: z.object({ b: z.string() }) }).safeParse({ a: { b: 1 } });
    const res = await answer(parsed.error);
    expect(res.status).toBe(422);
    expect(res.error.message).toMatch(/^a\.b: /);
    expect(res.error.issues).toEqual([{ path: "a.b", message: expect.any(String) }]);
  });

  it("passes an AppError's status, reason and issues through", async () => {
    const res = await answer(new AppError("unprocessable", "invalid_input", "x: bad.", { issues: [{ path: "x", message: "bad" }] }));
    expect(res).toEqual({ status: 422, error: { code: "unprocessable", reason: "invalid_input", message: "x: bad.", issues: [{ path: "x", message: "bad" }] } });
    expect((await answer(new AppError("payload_too_large", "body_too_large", "too big"))).status).toBe(413);
  });
});
