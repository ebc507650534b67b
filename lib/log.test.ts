import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { logContext, logger, setLogDestination, withLogContext } from "./log";

/** Every line carries traceId, threadId and runId of the context it was logged in (docs/architecture.md#events-and-telemetry). */
describe("structured logs", () => {
  let lines: Record<string, unknown>[];
  let restore: () => void;
  let level: string;
  beforeEach(() => {
    lines = [];
    restore = setLogDestination({ write: (line: string) => void lines.push(JSON.parse(line)) });
    level = logger.level;
    logger.level = "info";
  });
  afterEach(() => {
    restore();
    logger.level = level;
  });

  const a = { traceId: "0af7651916cd43dd8448eb211c80319c", threadId: "thread-a", runId: "run-a" };
  const b = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", threadId: "thread-b", runId: "run-b" };

  it("tags lines outside any run with null ids", () => {
    logger.info("outside");
    expect(lines).toEqual([expect.objectContaining({ msg: "outside", level: 30, traceId: null, threadId: null, runId: null })]);
    expect(logContext()).toBeUndefined();
  });

  it("tags lines logged inside a run, across awaits, timers and child loggers", async () => {
    const child = logger.child({ module: "test" });
    await withLogContext(a, async () => {
      child.info("sync");
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
      child.warn({ detail: 1 }, "after a timer");
      await Promise.resolve().then(() => logger.error({ err: new Error("bad") }, "in a promise"));
    });
    expect(lines.map((l) => [l.msg, l.traceId, l.threadId, l.runId])).toEqual([
      ["sync", a.traceId, a.threadId, a.runId],
      ["after a timer", a.traceId, a.threadId, a.runId],
      ["in a promise", a.traceId, a.threadId, a.runId],
    ]);
    expect(lines[0]?.module).toBe("test");
    expect((lines[2]?.err as { message: string }).message).toBe("bad");
  });

  it("keeps concurrent runs apart, and the innermost context wins", async () => {
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    await Promise.all([
      withLogContext(a, async () => {
        await tick();
        logger.info("a1");
        await tick();
        logger.info("a2");
      }),
      withLogContext(b, async () => {
        logger.info("b1");
        await tick();
        withLogContext(a, () => logger.info("nested a"));
        logger.info("b2");
      }),
    ]);
    const runOf = Object.fromEntries(lines.map((l) => [l.msg, l.runId]));
    expect(runOf).toEqual({ a1: "run-a", a2: "run-a", b1: "run-b", "nested a": "run-a", b2: "run-b" });
  });
});
