import type { StateSnapshot } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { platformThreadState } from "./thread-state";

const snap = (over: Partial<StateSnapshot>): StateSnapshot =>
  ({ values: {}, next: [], tasks: [], metadata: undefined, config: {}, createdAt: undefined, parentConfig: undefined, ...over }) as StateSnapshot;

describe("platformThreadState", () => {
  it("reads a thread without checkpoints as the empty state", () => {
    expect(platformThreadState("t", snap({}), () => undefined)).toEqual({ values: {}, next: [], tasks: [], checkpoint: null, metadata: {}, created_at: null, parent_checkpoint: null, interrupts: [] });
  });
  it("maps values, next, tasks with interrupts, the checkpoint and its parent", () => {
    const s = snap({
      values: { messages: [{ role: "user", content: "hi" }], branches: { s1: { approval_request: { token: "live-token" } } } },
      next: ["await_approval"],
      tasks: [{ id: "task-1", name: "await_approval", interrupts: [{ id: "i1", value: { kind: "question", question: "Q?" } }] }],
      config: { configurable: { thread_id: "t", checkpoint_id: "cp2", checkpoint_ns: "" } },
      parentConfig: { configurable: { thread_id: "t", checkpoint_id: "cp1", checkpoint_ns: "" } },
      metadata: { source: "loop", step: 3, parents: {} },
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    const st = platformThreadState("t", s, () => undefined);
    expect(st.values.messages).toEqual([{ type: "human", content: "hi", id: "t:message:0", additional_kwargs: {}, response_metadata: {} }]);
    expect(JSON.stringify(st)).not.toContain("live-token");
    expect(st.next).toEqual(["await_approval"]);
    expect(st.tasks).toEqual([{ id: "task-1", name: "await_approval", error: null, interrupts: [{ id: "i1", value: [expect.objectContaining({ question: "Q?" })] }], checkpoint: null, state: null }]);
    expect(st.checkpoint).toEqual({ thread_id: "t", checkpoint_ns: "", checkpoint_id: "cp2", checkpoint_map: null });
    expect(st.parent_checkpoint?.checkpoint_id).toBe("cp1");
    expect(st.interrupts.map((i) => i.id)).toEqual(["i1"]);
    expect(st.metadata).toEqual({ source: "loop", step: 3, parents: {} });
  });
});
