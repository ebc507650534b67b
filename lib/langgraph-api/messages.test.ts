import { describe, expect, it } from "vitest";
import { messageId, platformMessages } from "./messages";

describe("platformMessages", () => {
  it("maps our chat messages to LangChain message dicts with stable ids", () => {
    expect(
      platformMessages("t1", [
        { role: "user", content: "Summarize notes.md" },
        { role: "assistant", content: "Done." },
      ]),
    ).toEqual([
      { type: "human", content: "Summarize notes.md", id: "t1:message:0", additional_kwargs: {}, response_metadata: {} },
      { type: "ai", content: "Done.", id: "t1:message:1", additional_kwargs: {}, response_metadata: {}, tool_calls: [], invalid_tool_calls: [] },
    ]);
    expect(messageId("t1", 1)).toBe("t1:message:1");
  });
  it("keeps tool and system messages, with the tool call id and name", () => {
    const out = platformMessages("t", [
      { role: "system", content: "Be brief." },
      { role: "tool", content: [{ type: "text", text: "file contents" }], tool_call_id: "call_1", name: "read_file" },
    ]);
    expect(out.map((m) => m.type)).toEqual(["system", "tool"]);
    expect(out[1]).toMatchObject({ content: "file contents", tool_call_id: "call_1", name: "read_file" });
  });
  it("redacts the token of an approval typed into the chat", () => {
    const [m] = platformMessages("t", [{ role: "user", content: "APPROVE apv_123456 secrettoken99" }]);
    expect(m?.content).toBe("APPROVE apv_123456 [redacted]");
  });
});
