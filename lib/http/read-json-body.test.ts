import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { readJsonBody } from "./read-json-body";

const post = (body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) =>
  new Request("http://localhost/api/x", { method: "POST", body, headers, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe("readJsonBody", () => {
  it("parses a JSON body sent as application/json, +json, text/plain or without a type", async () => {
    expect(await readJsonBody(post('{"a":[1,"😀"]}'))).toEqual({ a: [1, "😀"] });
    expect(await readJsonBody(post("[1]", { "content-type": "application/merge-patch+json; charset=utf-8" }))).toEqual([1]);
    expect(await readJsonBody(post("2", { "content-type": "text/plain;charset=UTF-8" }))).toBe(2);
    expect(await readJsonBody(post("null", {}))).toBeNull();
  });

  it("refuses a form or multipart post with 415 before reading it", async () => {
    const err = await refusal(readJsonBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" })));
    expect([err.status, err.reason]).toEqual([415, "not_json"]);
  });

  it("refuses a body one byte over the cap with 413 naming the limit, declared or streamed", async () => {
    const declared = await refusal(readJsonBody(post(JSON.stringify("x".repeat(1_048_575))), {}));
    expect([declared.status, declared.reason]).toEqual([413, "body_too_large"]);
    expect(declared.message).toContain("1 MB (1048576 bytes)");
    const streamed = await refusal(readJsonBody(post(new Blob([new Uint8Array(300_000).fill(0x20)]).stream()), { maxBytes: 100_000 }));
    expect(streamed.status).toBe(413);
    expect(await readJsonBody(post(JSON.stringify("x".repeat(99_998))), { maxBytes: 100_000 })).toHaveLength(99_998);
  });

  it("reads a streamed body over the cap to its end (discarding it) before the 413, so the connection is at the next request", async () => {
    let left = 300; // 300 chunks of 64 KiB: about 19 MB against a 100 KB cap
    let cancelled = false;
    const oversized = new ReadableStream<Uint8Array>({
      pull(c) {
        if (left-- === 0) return c.close();
        c.enqueue(new Uint8Array(65_536).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const err = await refusal(readJsonBody(post(oversized), { maxBytes: 100_000 }));
    expect([err.status, err.reason]).toEqual([413, "body_too_large"]);
    expect(left).toBe(-1);
    expect(cancelled).toBe(false);
  });

  it("refuses nesting 10,000 deep with 422 before JSON.parse, and 65 deep at the default limit", async () => {
    for (const n of [10_000, 65]) {
      const err = await refusal(readJsonBody(post("[".repeat(n) + "]".repeat(n))));
      expect([err.status, err.reason]).toEqual([422, "json_too_deep"]);
      expect(err.message).toContain("64 levels");
    }
    expect(await readJsonBody(post("[".repeat(64) + "]".repeat(64)))).toBeInstanceOf(Array);
  });

  it("answers 400 for an empty body, text that is not JSON and bytes that are not UTF-8", async () => {
    for (const [body, reason] of [
      ["", "invalid_json"],
      ["{nope", "invalid_json"],
      ["NaN", "invalid_json"],
      [new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]), "invalid_utf8"],
    ] as const) {
      const err = await refusal(readJsonBody(post(body)));
      expect([err.status, err.reason]).toEqual([400, reason]);
    }
  });

  it("refuses a lone surrogate escaped in the JSON with 422 naming the field", async () => {
    const err = await refusal(readJsonBody(post('{"input":{"text":"hi \\ud800"}}')));
    expect([err.status, err.reason]).toEqual([422, "invalid_input"]);
    expect(err.message).toMatch(/^input\.text: .*lone UTF-16 surrogate/);
    expect(err.details?.issues).toEqual([{ path: "input.text", message: expect.stringContaining("surrogate") }]);
  });

  it("refuses a __proto__ key with 422 naming it", async () => {
    const err = await refusal(readJsonBody(post('{"args":{"__proto__":{"isAdmin":true}}}')));
    expect(err.status).toBe(422);
    expect(err.message).toContain("args.__proto__");
  });
});
