import { afterEach, describe, expect, it } from "vitest";
import { memoryAssistant } from "../../templates/memory-assistant";
import { subscribe } from "../events/bus";
import { installMemoryHooks } from "../memory/after-run-hooks";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * Memory through a real run (docs/architecture.md#memory): the Memory assistant template with the
 * offline model, the real memory service on a SQLite file. An agent remembers a fact
 * (`remember`, source = the thread and step), a later thread gets it injected into its
 * agent's context (a `data-memory` part) and recalls it; a finished run is summarized and
 * proposes facts; the script tool runs in QuickJS.
 */
describe("memory in runs", () => {
  let f: EngineFixture;
  let uninstall: (() => void) | undefined;
  afterEach(async () => {
    uninstall?.();
    await f?.cleanup();
  });

  it("remembers in one thread, injects and recalls in the next, in the same workspace only", async () => {
    f = await engineFixture(memoryAssistant);
    const first = await f.newThread("Remember that the staging server is staging.example.com");
    const chunks = await collect(await f.prepare(first, { kind: "message", text: "Remember that the staging server is staging.example.com" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    expect(chunks.some((c) => c.type === "data-tool" && c.data.toolName === "remember" && c.data.status === "done")).toBe(true);
    const fact = await f.t.db.memoryFact.findFirstOrThrow({ where: { content: "the staging server is staging.example.com" } });
    const step = await f.t.db.memoryEntry.findFirst({ where: { threadId: first, key: { startsWith: "step:" } } });
    expect(fact).toMatchObject({ origin: "remember", status: "accepted", sourceThreadId: first, sourceStepId: step?.stepId });
    // Short-term memory of the first thread: the tool call and the settled step.
    expect(await f.t.db.memoryEntry.count({ where: { threadId: first } })).toBe(2);

    const second = await f.newThread("What do you remember about the staging server?");
    const rest = await collect(await f.prepare(second, { kind: "message", text: "What do you remember about the staging server?" }));
    const injected = lastData(rest, "data-memory");
    expect(injected?.data.facts.map((x) => x.id)).toEqual([fact.id]);
    expect(injected?.data.shortTerm).toEqual([]); // a new thread has no short-term memory yet
    const recalled = rest.find((c) => c.type === "data-tool" && c.data.toolName === "recall" && c.data.status === "done");
    expect(recalled?.type === "data-tool" && recalled.data.output).toContain("staging.example.com");
    // The stored timeline keeps what was injected, under its event name.
    expect(await f.t.db.runEvent.count({ where: { threadId: second, type: "memory_injected" } })).toBe(1);

    // Another workspace's run never sees it.
    const other = await engineFixture(memoryAssistant);
    try {
      const t = await other.newThread("What do you remember about the staging server?");
      const got = await collect(await other.prepare(t, { kind: "message", text: "What do you remember about the staging server?" }));
      expect(got.some((c) => c.type === "data-memory")).toBe(false);
      const out = got.find((c) => c.type === "data-tool" && c.data.toolName === "recall" && c.data.status === "done");
      expect(out?.type === "data-tool" && out.data.output).not.toContain("staging.example.com");
    } finally {
      await other.cleanup();
    }
  });

  it("a completed run is summarized and proposes its step results as facts; a script runs in the sandbox", async () => {
    f = await engineFixture(memoryAssistant);
    const failures: unknown[] = [];
    uninstall = installMemoryHooks(f.t.db, (err) => failures.push(err));
    const promoted: unknown[] = [];
    const stop = subscribe("memory.promoted", (e) => {
      promoted.push(e.data);
    });
    try {
      const threadId = await f.newThread("Compute `6 * 7`");
      const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Compute `6 * 7`" }));
      const js = lastData(chunks, "data-tool");
      expect(js?.data).toMatchObject({ toolName: "run_javascript", status: "done" });
      expect(js?.data.output).toContain("42");
      expect(failures).toEqual([]);
      const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
      expect(thread.summary).toContain("Compute `6 * 7`");
      const proposed = await f.t.db.memoryFact.findMany({ where: { sourceThreadId: threadId } });
      expect(proposed.length).toBeGreaterThan(0);
      expect(proposed.every((p) => p.status === "proposed" && p.origin === "promoted")).toBe(true);
      expect(promoted).toEqual([{ factIds: expect.arrayContaining(proposed.map((p) => p.id)), accepted: false }]);
    } finally {
      stop();
    }
  });
});
