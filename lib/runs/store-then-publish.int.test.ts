import { afterEach, describe, expect, it, vi } from "vitest";
import { prismaRunStore } from "./store-prisma";
import { collect, type EngineFixture, engineFixture } from "./test-helpers";

// A bus on which nobody can subscribe: every subscription is dropped (docs/architecture.md#the-run-store).
vi.mock("../events/bus", async (importOriginal) => {
  const bus = await importOriginal<typeof import("../events/bus")>();
  return { ...bus, subscribe: () => () => undefined };
});

describe("store, then publish", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("a run whose bus has no subscriber still stores every event, in order, and streams each stored part", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const events = await prismaRunStore(f.t.db).events({ threadId });
    const names = events.map((e) => e.type);
    for (const name of ["user_message", "run_started", "plan_generated", "plan_step_started", "tool_call_proposed", "tool_result", "approval_required", "run_suspended"]) expect(names).toContain(name);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // Every part the run streamed is one it stored.
    const streamed = events.filter((e) => {
      const type = (JSON.parse(e.data) as { type?: unknown }).type;
      return typeof type === "string" && type !== "event";
    });
    expect(chunks.length).toBe(streamed.length);
    expect(chunks.at(-1)?.type).toBe("data-run");
  });
});
