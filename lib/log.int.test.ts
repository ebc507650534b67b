import { afterEach, describe, expect, it } from "vitest";
import { prepareRun } from "./runs/run-thread";
import { collect, type EngineFixture, engineFixture, lastData } from "./runs/test-helpers";
import { logger, setLogDestination } from "./log";
import { builtinRegistry, type ToolRegistry } from "./tools/registry";

/**
 * The run's ids reach lines logged deep inside it (docs/architecture.md#events-and-telemetry): a real graph run
 * on the offline model, whose read_file tool logs a line of its own; the lines are
 * captured through a pino destination stream.
 */
describe("log lines of a run", () => {
  let f: EngineFixture;
  let restore = () => {};
  afterEach(async () => {
    restore();
    await f?.cleanup();
  });

  it("a line logged inside a tool during a graph run carries the run's traceId, threadId and runId", async () => {
    f = await engineFixture();
    const lines: Record<string, unknown>[] = [];
    restore = setLogDestination({ write: (line: string) => void lines.push(JSON.parse(line)) });
    const level = logger.level;
    logger.level = "info";
    const previous = restore;
    restore = () => {
      previous();
      logger.level = level;
    };
    // The built-ins, with read_file logging from inside its own run.
    const registry: ToolRegistry = {
      ...builtinRegistry,
      get(name) {
        const def = builtinRegistry.get(name);
        if (name !== "read_file" || !def) return def;
        return {
          ...def,
          run: async (input, ctx) => {
            logger.child({ module: "test-tool" }).info({ path: (input as { path: string }).path }, "inside read_file");
            return def.run(input, ctx);
          },
        };
      },
    };
    const threadId = await f.newThread();
    const run = await prepareRun({
      db: f.t.db,
      threadId,
      userId: f.userId,
      input: { kind: "message", text: "Summarize notes.md into summary.md" },
      deps: { workspacesDir: f.workspacesDir, approvalSecret: f.secret, now: () => f.clock.now, registry },
    });
    const chunks = await collect(run);

    const runPart = lastData(chunks, "data-run")?.data;
    expect(runPart?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(runPart?.traceId).toBe(run.traceId);
    const inside = lines.filter((l) => l.msg === "inside read_file");
    expect(inside.length).toBeGreaterThan(0);
    for (const line of inside) expect(line).toMatchObject({ module: "test-tool", traceId: run.traceId, threadId, runId: run.runId, path: "notes.md" });
    // The gateway's own line for the call carries them too.
    expect(lines.find((l) => l.msg === "tool call" && l.tool === "read_file")).toMatchObject({ traceId: run.traceId, threadId, runId: run.runId, status: "success" });
    // And the stored run part has the same trace id as the stream's.
    const stored = await f.t.db.runEvent.findMany({ where: { runId: run.runId, type: { in: ["run_started", "run_suspended"] } } });
    for (const e of stored) expect(JSON.parse(e.data).data.traceId).toBe(run.traceId);
    expect(stored).toHaveLength(2);
  });
});
