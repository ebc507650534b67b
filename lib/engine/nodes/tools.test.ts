import { describe, expect, it } from "vitest";
import { branchTask, fakeDeps, mirrored, proposal, recorder, targets, updateOf } from "./fake-deps";
import type { ToolResultState } from "../state";
import { toolsNode } from "./tools";

/** Tools (docs/architecture.md#nodes): runs exactly the approved/allowed call through the gateway -> Interpreter. */

describe("toolsNode", () => {
  it("runs the exact proposed args in the thread's workspace, sets last_tool_result, audits, emits running/done", async () => {
    const deps = fakeDeps();
    deps.toolOutput = "hello from notes";
    const { config, chunks } = recorder();
    const args = { path: "notes.md" };
    const p = proposal("read_file", args);
    const cmd = await toolsNode(deps)(branchTask({ proposed_tool: p }), config as never);
    expect(deps.ran).toEqual([{ name: "read_file", args, threadId: "thread-1" }]);
    expect(deps.ran[0]?.args).toBe(p.args);
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["interpreter"]);
    const result = { tool_name: "read_file", call_id: p.tool_call_id, output: "hello from notes", status: "success", evicted: false, pointer: null, size_chars: 16, rehydration_allowed: false };
    expect(t[0]?.arg?.branch.last_tool_result).toMatchObject(result);
    expect(mirrored(cmd)?.last_tool_result).toMatchObject(result);
    expect(deps.audits).toEqual([{ threadId: "thread-1", action: "tool_executed", tool: "read_file" }]);
    expect(updateOf(cmd).audit_trail).toEqual([{ action: "tool_executed", at: new Date(deps.clock.now).toISOString(), actor: "assistant", tool: "read_file", args_hash: p.args_hash, detail: "success in 1 ms" }]);
    expect(chunks.map((c) => (c.type === "data-tool" ? [c.id, c.data.status, c.data.output] : c.type))).toEqual([
      [p.tool_call_id, "running", null],
      [p.tool_call_id, "done", "hello from notes"],
    ]);
  });

  it("a tool failure is an error result (status error, emitted as error), still audited", async () => {
    const deps = fakeDeps();
    deps.tools.run = async () => ({ status: "error", output: "no such file", sizeChars: 12, durationMs: 3, errorCode: "not_found" });
    const { config, chunks } = recorder();
    const cmd = await toolsNode(deps)(branchTask({ proposed_tool: proposal("read_file", { path: "missing.md" }) }), config as never);
    expect(mirrored(cmd)?.last_tool_result).toMatchObject({ status: "error", output: "no such file", metadata: { code: "not_found", durationMs: 3 } });
    expect(updateOf(cmd).audit_trail).toMatchObject([{ action: "tool_executed", detail: "error (not_found) in 3 ms" }]);
    expect(chunks.at(-1)).toMatchObject({ type: "data-tool", data: { status: "error" } });
  });

  it("nothing proposed: nothing runs -> Interpreter", async () => {
    const deps = fakeDeps();
    const cmd = await toolsNode(deps)(branchTask());
    expect(targets(cmd).map((x) => x.node)).toEqual(["interpreter"]);
    expect(deps.ran).toEqual([]);
    expect(deps.audits).toEqual([]);
  });
});

describe("toolsNode eviction", () => {
  it("Tools evicts outputs over 10,000 chars by original size; under 50,000 they may be rehydrated", async () => {
    for (const [size, allowed] of [
      [10_000, null],
      [10_001, true],
      [49_999, true],
      [50_000, false],
    ] as const) {
      const deps = fakeDeps();
      deps.toolOutput = "x".repeat(size);
      const cmd = await toolsNode(deps)(branchTask({ proposed_tool: proposal("read_file", { path: "big.txt" }) }));
      const r = targets(cmd)[0]?.arg?.branch.last_tool_result as ToolResultState;
      if (allowed === null) {
        expect(r).toMatchObject({ evicted: false, pointer: null, output: deps.toolOutput });
        continue;
      }
      expect(r).toMatchObject({ evicted: true, status: "evicted", size_chars: size, rehydration_allowed: allowed });
      expect(r.output).toBe(`[EVICTED size=${size}] See ${r.pointer}`);
      expect(deps.stored.get(r.pointer ?? "")?.content).toHaveLength(size);
    }
  });

});
