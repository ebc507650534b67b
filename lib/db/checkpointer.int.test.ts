import { Annotation, Command, END, INTERRUPT, interrupt, isInterrupted, START, StateGraph } from "@langchain/langgraph";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Checkpoint, JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { createDb } from "./client";
import { FIRST_LIST_PAGE, INLINE_MAX_BYTES, ONE_READ_LIMIT, PrismaCheckpointSaver } from "./checkpointer";
import { PgCheckpointStore } from "./checkpointer-pg";
import { PrismaCheckpointStore } from "./checkpointer-prisma";
import { SqliteCheckpointStore } from "./checkpointer-sqlite";
import { closeCheckpointStores } from "./checkpointer-stores";
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

/**
 * Small channel values live in the checkpoint row (INLINE_MAX_BYTES, docs/storage.md "Inline
 * values"); large ones stay one CheckpointBlob per version; rows written before that (every
 * value a blob, the row's values empty) read as they did. Each through the driver path and the
 * Prisma-only path, on the test database (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
describe.each([
  { path: "driver", url: (t: TestDb) => t.url },
  { path: "Prisma", url: () => null },
])("PrismaCheckpointSaver inline values ($path)", ({ url }) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await closeCheckpointStores();
    await t?.cleanup();
    t = undefined;
  });

  const serde = new JsonPlusSerializer();
  const config = (threadId: string, checkpointId?: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } });
  const checkpointOf = (id: string, values: Record<string, unknown>, versions: Record<string, number>): Checkpoint => ({
    v: 4,
    id,
    ts: new Date(0).toISOString(),
    channel_values: values,
    channel_versions: versions,
    versions_seen: {},
  });

  it("stores small values in the row and large ones as blobs, once per version", async () => {
    t = await createTestDb();
    const saver = new PrismaCheckpointSaver(t.db, { url: url(t) });
    const big = "b".repeat(INLINE_MAX_BYTES + 1);
    const first = checkpointOf("1ef0000000000001", { small: "s1", big, count: 1 }, { small: 1, big: 1, count: 1 });
    await saver.put(config("th"), first, { source: "input", step: -1, parents: {} }, first.channel_versions);
    const second = checkpointOf("1ef0000000000002", { small: "s2", big, count: 1 }, { small: 2, big: 1, count: 1 });
    await saver.put(config("th", first.id), second, { source: "loop", step: 0, parents: {} }, { small: 2 });
    const blobs = await t.db.checkpointBlob.findMany({ where: { threadId: "th" }, select: { channel: true, version: true } });
    expect(blobs).toEqual([{ channel: "big", version: "1" }]);
    // A fresh saver (another process) reads both, the unchanged ones too.
    const reader = new PrismaCheckpointSaver(t.db, { url: url(t) });
    expect((await reader.getTuple(config("th")))?.checkpoint).toEqual(second);
    expect((await reader.getTuple(config("th", first.id)))?.checkpoint).toEqual(first);
    // A put by a saver that knows nothing of the parent carries the unchanged small value too.
    const third = checkpointOf("1ef0000000000003", { small: "s2", big, count: 2 }, { small: 2, big: 1, count: 2 });
    await new PrismaCheckpointSaver(t.db, { url: url(t) }).put(config("th", second.id), third, { source: "loop", step: 1, parents: {} }, { count: 2 });
    expect((await reader.getTuple(config("th")))?.checkpoint).toEqual(third);
    expect(await t.db.checkpointBlob.count({ where: { threadId: "th" } })).toBe(1);
  });

  it("lists a thread's newest checkpoints in pages: a reader that stops after two reads a page, not the whole history", async () => {
    t = await createTestDb();
    const saver = new PrismaCheckpointSaver(t.db, { url: url(t) });
    const ids: string[] = [];
    let parent: string | undefined;
    for (let i = 1; i <= 40; i++) {
      const id = `1ef${String(i).padStart(13, "0")}`;
      const cp = checkpointOf(id, { n: i }, { n: i });
      await saver.put(config("paged", parent), cp, { source: i % 2 ? "loop" : "input", step: i, parents: {} }, { n: i });
      await saver.putWrites(config("paged", id), [["n", i + 1]], `task-${i}`);
      ids.unshift(id);
      parent = id;
    }
    const rowsRead: number[] = [];
    const spies = [SqliteCheckpointStore, PgCheckpointStore, PrismaCheckpointStore].map((Store) => {
      const list = Store.prototype.list;
      return vi.spyOn(Store.prototype, "list").mockImplementation(async function (this: never, q) {
        const rows = await list.call(this, q);
        rowsRead.push(rows.length);
        return rows;
      });
    });
    try {
      const reader = new PrismaCheckpointSaver(t.db, { url: url(t) });
      const newest: string[] = [];
      for await (const tuple of reader.list(config("paged"))) {
        newest.push(tuple.checkpoint.id);
        if (newest.length === 2) break;
      }
      expect(newest).toEqual(ids.slice(0, 2));
      expect(rowsRead.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(FIRST_LIST_PAGE);
      // Read to the end, the pages join up: all 40, newest first, each with its pending write.
      const all = [];
      for await (const tuple of reader.list(config("paged"))) all.push(tuple);
      expect(all.map((x) => x.checkpoint.id)).toEqual(ids);
      expect(all.map((x) => x.pendingWrites?.[0]?.[2])).toEqual(ids.map((_, i) => 41 - i));
      // Limits (read at once, or in pages past ONE_READ_LIMIT), before and a metadata filter hold.
      for (const limit of [7, ONE_READ_LIMIT + 3]) {
        const got = [];
        for await (const tuple of reader.list(config("paged"), { limit })) got.push(tuple.checkpoint.id);
        expect(got).toEqual(ids.slice(0, limit));
      }
      const older = [];
      for await (const tuple of reader.list(config("paged"), { before: config("paged", ids[9]) })) older.push(tuple.checkpoint.id);
      expect(older).toEqual(ids.slice(10));
      const loops = [];
      for await (const tuple of reader.list(config("paged"), { filter: { source: "loop" } })) loops.push(tuple.checkpoint.id);
      expect(loops).toEqual(ids.filter((_, i) => (40 - i) % 2 === 1));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("a value holding U+0000 or a lone surrogate reads back on every database: it is a blob, never inline", async () => {
    t = await createTestDb();
    const saver = new PrismaCheckpointSaver(t.db, { url: url(t) });
    // As a task pasted with a NUL reaches the state; PostgreSQL's JSON functions refuse both escapes.
    const values = { messages: [{ role: "user", content: "Summarize\u0000 notes.md" }], odd: "x\ud800y", key: { "a\u0000b": 1 }, plain: "ok" };
    const cp = checkpointOf("1ef0000000000001", values, { messages: 1, odd: 1, key: 1, plain: 1 });
    await saver.put(config("nul"), cp, { source: "input", step: -1, parents: {} }, cp.channel_versions);
    const reader = new PrismaCheckpointSaver(t.db, { url: url(t) });
    expect((await reader.getTuple(config("nul")))?.checkpoint).toEqual(cp);
    const listed = [];
    for await (const tuple of reader.list(config("nul"))) listed.push(tuple.checkpoint);
    expect(listed).toEqual([cp]);
    const blobs = await t.db.checkpointBlob.findMany({ where: { threadId: "nul" }, select: { channel: true }, orderBy: { channel: "asc" } });
    expect(blobs.map((b) => b.channel)).toEqual(["key", "messages", "odd"]);
  });

  it("reads a checkpoint written before values were inlined: its values from blobs", async () => {
    t = await createTestDb();
    const old = checkpointOf("1ef0000000000001", { a: ["x"], n: 3 }, { a: 1, n: 2, gone: 1 });
    // As the saver wrote rows then: the checkpoint without values, a blob per version ("empty" when none).
    const [type, bytes] = await serde.dumpsTyped({ ...old, channel_values: {} });
    const [metadataType, metadata] = await serde.dumpsTyped({ source: "input", step: -1, parents: {} });
    await t.db.checkpoint.create({
      data: { threadId: "old", checkpointNs: "", checkpointId: old.id, type, checkpoint: Buffer.from(bytes), metadataType, metadata: Buffer.from(metadata), metadataJson: "{}" },
    });
    for (const [channel, version, value] of [
      ["a", "1", ["x"]],
      ["n", "2", 3],
      ["gone", "1", undefined],
    ] as const) {
      const [blobType, blob] = value === undefined ? ["empty", new Uint8Array()] : await serde.dumpsTyped(value);
      await t.db.checkpointBlob.create({ data: { threadId: "old", checkpointNs: "", channel, version, type: blobType, value: Buffer.from(blob) } });
    }
    const saver = new PrismaCheckpointSaver(t.db, { url: url(t) });
    expect((await saver.getTuple(config("old")))?.checkpoint).toEqual(old);
    // A child written now keeps reading the unchanged value from the old blob.
    const child = checkpointOf("1ef0000000000002", { a: ["x"], n: 4 }, { a: 1, n: 3, gone: 1 });
    await new PrismaCheckpointSaver(t.db, { url: url(t) }).put(config("old", old.id), child, { source: "loop", step: 0, parents: {} }, { n: 3 });
    expect((await new PrismaCheckpointSaver(t.db, { url: url(t) }).getTuple(config("old")))?.checkpoint).toEqual(child);
    const listed = [];
    for await (const tuple of saver.list(config("old"))) listed.push(tuple.checkpoint);
    expect(listed).toEqual([child, old]);
  });
});
