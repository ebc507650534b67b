import { describe, expect, it } from "vitest";
import { RunBody, streamModesOf } from "./run-body";

describe("RunBody", () => {
  it("accepts what the SDK sends for a plain run, and defaults the stream mode to values", () => {
    const body = RunBody.parse({ assistant_id: "f1", input: { messages: [{ role: "user", content: "hi" }] }, stream_mode: ["values", "custom"] });
    expect(body.assistant_id).toBe("f1");
    expect([...streamModesOf(body)]).toEqual(["values", "custom"]);
    expect([...streamModesOf(RunBody.parse({ assistant_id: "f1" }))]).toEqual(["values"]);
  });

  it("refuses options that would change what a run does, naming each field", () => {
    const r = RunBody.safeParse({ assistant_id: "f1", interrupt_before: ["tools"], checkpoint_id: "c1", multitask_strategy: "enqueue", stream_mode: "debug", command: { goto: "x" } });
    expect(r.success).toBe(false);
    const paths = (r.error?.issues ?? []).map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["interrupt_before", "checkpoint_id", "multitask_strategy", "stream_mode", "command.goto"]));
  });

  it("takes a resume as a HumanResponse, a list of one, a string or a map by interrupt id", () => {
    for (const resume of [{ type: "ignore", args: null }, [{ type: "response", args: "no" }], "yes", { "i-1": { type: "accept", args: { action: "w", args: {} } } }]) {
      expect(RunBody.safeParse({ assistant_id: "f1", command: { resume } }).success).toBe(true);
    }
    expect(RunBody.safeParse({ assistant_id: "f1", command: { resume: [{ type: "accept" }, { type: "ignore" }] } }).success).toBe(false);
  });
});
