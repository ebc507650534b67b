import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { testDialect } from "../db/test-db";
import { resetEnvForTests } from "../env";
import { isAppError } from "../errors";
import { enqueueRun } from "./run-thread";
import { type EngineFixture, engineFixture } from "./test-helpers";

/**
 * The thread lease decides races between processes (docs/durability.md#the-lease): messages
 * sent at once to one thread through two database clients (as two server instances would)
 * accept exactly one run; every other gets 409 run_in_progress, and leaves no Run row.
 */
describe("the thread lease under concurrent requests", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("accepts exactly one run of eight concurrent messages; the rest get 409 and leave nothing behind", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    // On PostgreSQL, two clients (two pools, as two instances have). On SQLite, one: two
    // clients in ONE process would wait for each other's write lock inside one event loop;
    // instances are separate processes (tests/cluster covers them over HTTP).
    const other = testDialect() === "postgresql" ? createDb(f.t.url) : f.t.db;
    try {
      const clients = [f.t.db, other];
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => enqueueRun({ db: clients[i % 2] ?? f.t.db, threadId, userId: f.userId, input: { kind: "message", text: `message ${i}` }, deps: f.deps })),
      );
      const accepted = results.filter((r) => r.status === "fulfilled");
      const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      expect(accepted).toHaveLength(1);
      expect(refused).toHaveLength(7);
      for (const err of refused) expect(isAppError(err) && { status: err.status, reason: err.reason }).toEqual({ status: 409, reason: "run_in_progress" });
      const runs = await f.t.db.run.findMany({ where: { threadId } });
      expect(runs).toHaveLength(1);
      expect(await f.t.db.runJob.count({ where: { threadId } })).toBe(1);
      const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
      expect(thread.leaseRunId).toBe(runs[0]?.id);
    } finally {
      if (other !== f.t.db) await other.$disconnect();
    }
  });

  it("refuses with 429 when the deployment's queue is full, naming what to do", async () => {
    f = await engineFixture();
    const first = await f.newThread();
    const second = await f.newThread();
    await enqueueRun({ db: f.t.db, threadId: first, userId: f.userId, input: { kind: "message", text: "one" }, deps: f.deps });
    const prev = process.env.MAX_QUEUED_RUNS;
    process.env.MAX_QUEUED_RUNS = "1";
    resetEnvForTests();
    try {
      await expect(enqueueRun({ db: f.t.db, threadId: second, userId: f.userId, input: { kind: "message", text: "two" }, deps: f.deps })).rejects.toMatchObject({
        status: 429,
        reason: "queue_full",
      });
      expect(await f.t.db.run.count({ where: { threadId: second } })).toBe(0);
    } finally {
      if (prev === undefined) delete process.env.MAX_QUEUED_RUNS;
      else process.env.MAX_QUEUED_RUNS = prev;
      resetEnvForTests();
    }
  });
});
