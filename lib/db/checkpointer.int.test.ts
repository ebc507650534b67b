import { Annotation, Command, END, INTERRUPT, interrupt, isInterrupted, START, StateGraph } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "./client";
import { PrismaCheckpointSaver } from "./checkpointer";
import { createTestDb, type TestDb } from "./test-db";

/**
 * A run that stops at an interrupt survives a "restart": a second client and saver on the
 * same SQLite file see the pending interrupt and resume exactly where the run stopped
 * (SPEC.md 2 AwaitApproval, issue 2 item 10).
 */
const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  decision: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

let sideEffects = 0;

function buildGraph(saver: PrismaCheckpointSaver) {
  return new StateGraph(State)
    .addNode("propose", () => ({ log: ["proposed"] }))
    .addNode("await_approval", () => {
      const answer = interrupt<{ tool: string }, { type: string }>({ tool: "write_file" });
      return { decision: answer.type, log: [`decided:${answer.type}`] };
    })
    .addNode("tools", () => {
      sideEffects += 1;
      return { log: ["tool ran"] };
    })
    .addEdge(START, "propose")
    .addEdge("propose", "await_approval")
    .addConditionalEdges("await_approval", (s) => (s.decision === "accept" ? "tools" : END))
    .addEdge("tools", END)
    .compile({ checkpointer: saver });
}

describe("PrismaCheckpointSaver durability across restarts", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  /** A migrated SQLite file, removed after the test; resets the side-effect counter. */
  async function freshDb(): Promise<TestDb> {
    sideEffects = 0;
    const t = await createTestDb();
    cleanups.push(t.cleanup);
    return t;
  }

  it("resumes an interrupted thread from a fresh client on the same file", async () => {
    const t = await freshDb();
    const config = { configurable: { thread_id: "thread-restart" } };

    const first = buildGraph(new PrismaCheckpointSaver(t.db));
    const out = await first.invoke({ log: ["start"] }, config);
    expect(isInterrupted(out)).toBe(true);
    if (!isInterrupted(out)) throw new Error("expected an interrupt");
    expect(out[INTERRUPT][0]?.value).toEqual({ tool: "write_file" });
    expect(sideEffects).toBe(0);
    await t.db.$disconnect();

    // "Restart": a brand-new Prisma client and saver on the same SQLite file.
    const db2 = createDb(t.url);
    cleanups.push(() => db2.$disconnect());
    const second = buildGraph(new PrismaCheckpointSaver(db2));
    const state = await second.getState(config);
    expect(state.next).toEqual(["await_approval"]);
    expect(state.tasks[0]?.interrupts[0]?.value).toEqual({ tool: "write_file" });

    const done = await second.invoke(new Command({ resume: { type: "accept" } }), config);
    expect(done.log).toEqual(["start", "proposed", "decided:accept", "tool ran"]);
    expect(sideEffects).toBe(1);
    expect((await second.getState(config)).next).toEqual([]);
  });

  it("a rejected approval ends the run without the side effect", async () => {
    const t = await freshDb();
    const config = { configurable: { thread_id: "thread-reject" } };
    const graph = buildGraph(new PrismaCheckpointSaver(t.db));
    await graph.invoke({ log: [] }, config);
    const done = await graph.invoke(new Command({ resume: { type: "reject" } }), config);
    expect(done.log).toEqual(["proposed", "decided:reject"]);
    expect(sideEffects).toBe(0);
  });
});
