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
    expect(updateOf(cmd).audit_trail).toEqual([
      {
        action: "tool_executed",
        at: new Date(deps.clock.now).toISOString(),
        actor: "assistant",
        tool: "read_file",
        args_hash: p.args_hash,
        detail: "success in 1 ms",
        key: `tool_executed:${p.tool_call_id}:1`,
      },
    ]);
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

describe("toolsNode exactly once (docs/durability.md)", () => {
  it("a side-effecting call: the intent is recorded before the tool runs and the outcome after it", async () => {
    const deps = fakeDeps();
    const p = proposal("write_file", { path: "out.md", content: "x" });
    const seen: (string | undefined)[] = [];
    const run = deps.tools.run;
    deps.tools.run = async (...a) => {
      seen.push((await deps.executions.get({ threadId: "thread-1", toolCallId: p.tool_call_id }))?.status);
      return run(...a);
    };
    await toolsNode(deps)(branchTask({ proposed_tool: p }));
    expect(seen).toEqual(["started"]);
    expect(await deps.executions.get({ threadId: "thread-1", toolCallId: p.tool_call_id })).toMatchObject({ status: "completed", attempt: 1, toolName: "write_file", argsHash: p.args_hash });
  });

  it("run again after the outcome was recorded: the tool does not run, the recorded result is used, audit and memory are not doubled", async () => {
    const deps = fakeDeps();
    deps.toolOutput = "wrote out.md";
    const p = proposal("write_file", { path: "out.md", content: "x" });
    const first = await toolsNode(deps)(branchTask({ proposed_tool: p }));
    deps.toolOutput = "SECOND RUN";
    const again = await toolsNode(deps)(branchTask({ proposed_tool: p }));
    expect(deps.ran).toHaveLength(1);
    expect(mirrored(again)?.last_tool_result).toEqual(mirrored(first)?.last_tool_result);
    expect(mirrored(again)?.last_tool_result?.output).toBe("wrote out.md");
    expect(deps.audits.filter((a) => a.action === "tool_executed")).toHaveLength(1);
  });

  it("a read-only call keeps no record and runs again when its node runs again", async () => {
    const deps = fakeDeps();
    const p = proposal("read_file", { path: "notes.md" });
    await toolsNode(deps)(branchTask({ proposed_tool: p }));
    await toolsNode(deps)(branchTask({ proposed_tool: p }));
    expect(deps.ran).toHaveLength(2);
    expect(deps.executions.rows.size).toBe(0);
  });

  it("a call a person chose to skip: the tool does not run; the step ends as skipped (final) and says why -> Supervisor", async () => {
    const deps = fakeDeps();
    const p = proposal("delete_file", { path: "old.md" });
    const key = { threadId: "thread-1", toolCallId: p.tool_call_id };
    await deps.executions.begin({ ...key, toolName: p.name, argsHash: p.args_hash, approvalId: null, stepId: "s1", agentId: "assistant" }, 1_000);
    await deps.executions.decide(key, 1, "skip", "Ada", 2_000);
    const cmd = await toolsNode(deps)(branchTask({ proposed_tool: p }));
    expect(deps.ran).toEqual([]);
    expect(targets(cmd).map((t) => t.node)).toEqual(["supervisor"]);
    expect(mirrored(cmd)?.output).toEqual({
      step_id: mirrored(cmd)?.step_id,
      ok: false,
      final: "skipped",
      text: "delete_file old.md was not done: the server stopped during the call, so whether it took effect is unknown, and Ada chose to skip it.",
    });
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
