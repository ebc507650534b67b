import { describe, expect, it } from "vitest";
import { isAppError } from "../errors";
import { callOutput } from "./call-result";

describe("MCP call results", () => {
  it("join the text content; other blocks become short markers", () => {
    const out = callOutput(
      {
        content: [
          { type: "text", text: "one" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
          { type: "text", text: "two" },
          { type: "resource_link", uri: "file:///x", name: "x" },
        ],
      },
      "mcp__a__b",
    );
    expect(out).toBe("one\n\n[image image/png, 4 base64 chars not shown]\n\ntwo\n\n[resource file:///x (x)]");
  });

  it("prefer structuredContent when present", () => {
    expect(callOutput({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } }, "mcp__a__add")).toEqual({ sum: 3 });
  });

  it("turn isError into an AppError mcp_tool_error with the server's message", () => {
    try {
      callOutput({ isError: true, content: [{ type: "text", text: "disk full" }] }, "mcp__a__b");
      throw new Error("no throw");
    } catch (err) {
      expect(isAppError(err) && err.reason).toBe("mcp_tool_error");
      expect((err as Error).message).toContain("disk full");
    }
  });
});
