import { describe, expect, it } from "vitest";
import { undecodablePath } from "./path-decoding";

describe("undecodablePath", () => {
  it("flags paths whose escapes are not UTF-8 text: stray %, bad hex, surrogate bytes, overlong forms", () => {
    for (const p of ["/api/threads/%", "/api/threads/%zz/memory", "/api/x/%ED%A0%80", "/api/x/%C0%AF", "/a/%FF", "/a/%E2%82"]) expect(undecodablePath(p), p).toBe(true);
  });

  it("lets ordinary and well-encoded paths through: ids, %25, %2F, emoji, combining marks", () => {
    for (const p of ["/", "/api/threads/cm123/stream", "/api/x/%25", "/api/x/a%2Fb", "/api/x/%F0%9F%98%80", "/api/x/e%CC%81", "/api/x/%00"]) expect(undecodablePath(p), p).toBe(false);
  });
});
