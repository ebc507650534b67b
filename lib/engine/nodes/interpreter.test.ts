import { describe, expect, it } from "vitest";
import type { ModelMessage } from "ai";
import type { ToolResultState } from "../state";
import { branchTask, gotoOf, mirrored, proposal, updateOf } from "./fake-deps";
import { interpreterNode } from "./interpreter";

/** Interpreter (docs/architecture.md#nodes): the tool result back into the Executor's conversation, proposed_tool cleared. */

const result = (overrides: Partial<ToolResultState> = {}): ToolResultState => ({
  tool_name: "read_file",
  call_id: "call_1-abcd1234",
  output: "hello",
  status: "success",
  evicted: false,
  pointer: null,
  size_chars: 5,
  rehydration_allowed: false,
  metadata: {},
  ...overrides,
});
const p = proposal("read_file", { path: "notes.md" });
const resultPart = (m: ModelMessage | undefined) => (m?.role === "tool" ? m.content[0] : undefined);

describe("interpreterNode", () => {
  it("appends a tool-result message with the output, clears proposed_tool -> Supervisor", async () => {
    const earlier: ModelMessage[] = [{ role: "user", content: "Step 1" }];
    const cmd = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: result(), executor_messages: earlier }));
    expect(gotoOf(cmd)).toBe("supervisor");
    const b = mirrored(cmd);
    expect(b).toMatchObject({ phase: "returned", proposed_tool: null });
    expect(b?.executor_messages).toEqual([
      ...earlier,
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1-abcd1234", toolName: "read_file", output: { type: "text", value: "hello" } }] },
    ]);
    expect(b?.tool_history).toEqual([{ tool: "read_file", args_hash: p.args_hash, output_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(updateOf(cmd).error).toBeUndefined();
  });

  it("an error result is prefixed with ERROR:", async () => {
    const cmd = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: result({ status: "error", output: "BLOCKED by policy" }) }));
    expect(resultPart(mirrored(cmd)?.executor_messages.at(-1))).toMatchObject({ output: { type: "text", value: "ERROR: BLOCKED by policy" } });
  });
  it("an evicted (successful, large) output is handed back as the marker, not as an error", async () => {
    const marker = "[EVICTED size=12000] See blob:b1xxxxx";
    const evicted = result({ status: "evicted", evicted: true, output: marker, pointer: "blob:b1xxxxx", size_chars: 12_000, rehydration_allowed: true });
    const cmd = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: evicted }));
    expect(resultPart(mirrored(cmd)?.executor_messages.at(-1))).toMatchObject({ output: { type: "text", value: marker } });
  });

  it("no result (nothing ran): the branch returns to the Supervisor with proposed_tool cleared", async () => {
    const cmd = await interpreterNode()(branchTask({ proposed_tool: p }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)).toMatchObject({ phase: "returned", proposed_tool: null, executor_messages: [] });
  });

  it("the third identical call (same tool, args and output) stops the run with loop_detected", async () => {
    let history = branchTask().branch.tool_history;
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const cmd = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: result(), tool_history: history }));
      history = mirrored(cmd)?.tool_history ?? [];
      errors.push(updateOf(cmd).error);
      if (i === 2) expect(mirrored(cmd)).toMatchObject({ phase: "done", output: { ok: false } });
    }
    expect(errors[0]).toBeUndefined();
    expect(errors[1]).toBeUndefined();
    expect(errors[2]).toMatchObject({ code: "loop_detected", metadata: { tool: "read_file", repeats: 3 } });
    // A different output is not a loop.
    const changed = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: result({ output: "new" }), tool_history: history.slice(0, 2) }));
    expect(updateOf(changed).error).toBeUndefined();
  });
});
