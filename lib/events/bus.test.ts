import { afterEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { BUS_TOPICS, type BusEvent, busSchemas, newTraceId, publish, subscribe } from "./bus";

/** The typed in-process bus (SPEC.md 7, seed 004): schemas, patterns, filters, order, failures. */
describe("event bus", () => {
  const stops: (() => void)[] = [];
  const on = (...args: Parameters<typeof subscribe>) => stops.push(subscribe(...args));
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  const ids = { traceId: "0af7651916cd43dd8448eb211c80319c", threadId: "t1", runId: "r1" };
  const appended = (entryId: string, over: Partial<BusEvent<"memory.appended">> = {}): BusEvent<"memory.appended"> => ({
    ...ids,
    topic: "memory.appended",
    at: 1,
    data: { entryId, agentId: "a", action: "read", stepId: null },
    ...over,
  });
  const toolPart = { type: "data-tool", id: "c1", data: { toolCallId: "c1", toolName: "read_file", args: {}, argsHash: "h", status: "error", decision: null, rule: null, output: "x" } };
  const failed: BusEvent<"tool.failed"> = { ...ids, topic: "tool.failed", at: 2, data: { name: "tool_result", chunk: toolPart as never } };

  it("has one schema per topic, in the four seed namespaces plus approvals", () => {
    expect(BUS_TOPICS).toEqual(Object.keys(busSchemas));
    for (const topic of BUS_TOPICS) expect(topic).toMatch(/^(task|agent|tool|memory|approval)\.[a-z_]+$/);
    for (const name of [
      "task.created",
      "task.started",
      "task.blocked",
      "task.completed",
      "task.failed",
      "agent.started",
      "agent.tool_called",
      "agent.completed",
      "agent.error",
      "tool.invoked",
      "tool.success",
      "tool.failed",
      "memory.appended",
      "memory.promoted",
      "memory.retrieved",
    ]) {
      expect(BUS_TOPICS).toContain(name);
    }
  });

  it("refuses an event that breaks its topic's schema or envelope before any subscriber sees it", async () => {
    const seen: string[] = [];
    on("*", (e) => {
      seen.push(e.topic);
    });
    await expect(publish({ ...appended("e1"), data: { entryId: 1 } } as never)).rejects.toBeInstanceOf(ZodError);
    await expect(publish(appended("e1", { traceId: "not-a-trace-id" }))).rejects.toBeInstanceOf(ZodError);
    await expect(publish({ ...failed, data: { name: "tool_result", chunk: { ...toolPart, data: { ...toolPart.data, status: "exploded" } } } } as never)).rejects.toBeInstanceOf(ZodError);
    // A run topic takes only its own event names.
    await expect(publish({ ...failed, data: { name: "final_answer", chunk: toolPart } } as never)).rejects.toBeInstanceOf(ZodError);
    expect(seen).toEqual([]);
  });

  it("hands subscribers the very chunk that was published (checked, not reshaped)", async () => {
    const withExtra = { ...toolPart, data: { ...toolPart.data, extra: "kept" } };
    let got: unknown;
    on("tool.failed", (e) => {
      got = (e.data as { chunk: unknown }).chunk;
    });
    await publish({ ...failed, data: { name: "tool_result", chunk: withExtra as never } });
    expect(got).toBe(withExtra);
  });

  it("matches exact topics, namespaces (`tool.*`) and everything (`*`)", async () => {
    const seen: string[] = [];
    on("tool.failed", (e) => {
      seen.push(`exact:${e.topic}`);
    });
    on("tool.*", (e) => {
      seen.push(`tool.*:${e.topic}`);
    });
    on("memory.*", (e) => {
      seen.push(`memory.*:${e.topic}`);
    });
    on("*", (e) => {
      seen.push(`*:${e.topic}`);
    });
    await publish(failed);
    await publish(appended("e1"));
    expect(seen).toEqual(["exact:tool.failed", "tool.*:tool.failed", "*:tool.failed", "memory.*:memory.appended", "*:memory.appended"]);
  });

  it("filters by thread and by run", async () => {
    const byRun: string[] = [];
    const byThread: string[] = [];
    on("*", (e) => void byRun.push((e.data as { entryId: string }).entryId), { runId: "r1" });
    on("*", (e) => void byThread.push((e.data as { entryId: string }).entryId), { threadId: "t2" });
    await publish(appended("a"));
    await publish(appended("b", { runId: "r2" }));
    await publish(appended("c", { threadId: "t2", runId: null }));
    expect(byRun).toEqual(["a"]);
    expect(byThread).toEqual(["c"]);
  });

  it("awaits async subscribers one after another, in subscription order", async () => {
    const log: string[] = [];
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    on("memory.appended", async (e) => {
      log.push(`first start ${(e.data as { entryId: string }).entryId}`);
      await tick();
      await tick();
      log.push("first end");
    });
    on("memory.appended", async () => {
      log.push("second start");
      await tick();
      log.push("second end");
    });
    await publish(appended("e1"));
    log.push("published");
    expect(log).toEqual(["first start e1", "first end", "second start", "second end", "published"]);
  });

  it("keeps event order for one subscriber across publishes", async () => {
    const got: string[] = [];
    on("memory.appended", async (e) => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      got.push((e.data as { entryId: string }).entryId);
    });
    for (const id of ["1", "2", "3", "4"]) await publish(appended(id));
    expect(got).toEqual(["1", "2", "3", "4"]);
  });

  it("a failing subscriber does not stop the others; publish then rethrows its error", async () => {
    const seen: string[] = [];
    on("memory.appended", () => {
      throw new Error("boom");
    });
    on("memory.appended", async () => {
      throw new Error("second failure");
    });
    on("memory.appended", () => {
      seen.push("third ran");
    });
    await expect(publish(appended("e1"))).rejects.toThrow("boom");
    expect(seen).toEqual(["third ran"]);
  });

  it("stops delivering after unsubscribe", async () => {
    let count = 0;
    const stop = subscribe("*", () => {
      count += 1;
    });
    await publish(appended("e1"));
    stop();
    stop();
    await publish(appended("e2"));
    expect(count).toBe(1);
  });

  it("draws W3C trace ids: 32 lower-case hex chars, distinct", () => {
    const a = newTraceId();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newTraceId()).not.toBe(a);
  });
});
