import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestPostgres, testPostgres } from "../../tests/pg/test-cluster";
import { createTestDb, type TestDb } from "../db/test-db";
import { createFlow } from "../db/flows";
import { createThread } from "../db/threads";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { APPROVALS_CHANNEL } from "./approval-bus";
import { onApprovalAnywhere } from "./approval-fanout";
import { fanoutFor } from "./fanout-of";
import { type FollowedChunk, followThread } from "../runs/follow-thread";
import { InProcessFanout } from "./in-process-fanout";
import { PgFanout } from "./pg-fanout";
import { notifyThreadEvent } from "./thread-events";

/** LISTEN/NOTIFY fan-out against a real PostgreSQL server, each side on its own connection. */
describe("PostgreSQL fan-out", () => {
  let server: TestPostgres;
  const opened: PgFanout[] = [];
  const open = (name: string) => {
    const f = new PgFanout({ connectionString: server.url, applicationName: name, retryMs: 50, maxRetryMs: 200 });
    opened.push(f);
    return f;
  };
  beforeAll(async () => {
    server = await testPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const f of opened) await f.close();
    await server?.stop();
  });

  it("is picked for postgresql:// URLs; a file: URL gets the in-process one", async () => {
    const f = fanoutFor(server.url);
    expect(f).toBeInstanceOf(PgFanout);
    await f.close();
    expect(fanoutFor("file:./x.db")).toBeInstanceOf(InProcessFanout);
  });

  it("delivers a notification sent on one connection to listeners on another, in order, as JSON", async () => {
    const a = open("fanout-test-a");
    const b = open("fanout-test-b");
    const got: unknown[] = [];
    const stop = b.listen("phylactery_test_one", (p) => void got.push(p));
    await stop.ready;
    for (let i = 0; i < 5; i += 1) await a.notify("phylactery_test_one", { id: `x${i}`, n: i });
    await a.notify("phylactery_test_other", { id: "elsewhere" });
    await until(() => got.length === 5);
    expect(got).toEqual([0, 1, 2, 3, 4].map((n) => ({ id: `x${n}`, n })));
    stop();
  });

  it("hears a plain NOTIFY from any client, LISTENs once per channel however many handlers, and stops after the last unlisten", async () => {
    const b = open("fanout-test-c");
    const first: unknown[] = [];
    const second: unknown[] = [];
    const s1 = b.listen("phylactery_test_two", (p) => void first.push(p));
    const s2 = b.listen("phylactery_test_two", (p) => void second.push(p));
    await Promise.all([s1.ready, s2.ready]);
    const raw = new pg.Client({ connectionString: server.url });
    await raw.connect();
    try {
      await raw.query(`NOTIFY phylactery_test_two, '{"id":"raw"}'`);
      await until(() => first.length === 1 && second.length === 1);
      s1();
      await raw.query(`NOTIFY phylactery_test_two, '{"id":"raw2"}'`);
      await until(() => second.length === 2);
      expect(first).toEqual([{ id: "raw" }]);
      s2();
      // UNLISTEN went out on the connection: a notification now reaches nobody.
      await raw.query(`NOTIFY phylactery_test_two, '{"id":"raw3"}'`);
      const marker: unknown[] = [];
      const s3 = b.listen("phylactery_test_three", (p) => void marker.push(p));
      await s3.ready;
      await raw.query(`NOTIFY phylactery_test_three, '{"id":"after"}'`);
      await until(() => marker.length === 1);
      expect(second).toEqual([{ id: "raw" }, { id: "raw2" }]);
      s3();
    } finally {
      await raw.end();
    }
  });

  it("reconnects after its connection is killed and LISTENs again on every channel", async () => {
    const a = open("fanout-test-sender");
    const b = open("fanout-test-victim");
    const got: string[] = [];
    const stop = b.listen("phylactery_test_four", (p) => void got.push((p as { id: string }).id));
    await stop.ready;
    await a.notify("phylactery_test_four", { id: "before" });
    await until(() => got.length === 1);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      const killed = await admin.query("SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'fanout-test-victim'");
      expect(killed.rows).toEqual([{ ok: true }]);
    } finally {
      await admin.end();
    }
    // Notifications sent while it was away are lost; once back it hears the next ones.
    const deadline = Date.now() + 10_000;
    let i = 0;
    while (!got.includes("after") && Date.now() < deadline) {
      i += 1;
      await a.notify("phylactery_test_four", { id: i > 1 ? "after" : "maybe-lost" });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(got).toContain("after");
    expect(got[0]).toBe("before");
    stop();
  });

  it("refuses payloads over the NOTIFY limit and bad channel names; notify without a server gives up without throwing", async () => {
    const a = open("fanout-test-limits");
    await expect(a.notify("phylactery_test_five", { blob: "x".repeat(8_000) })).rejects.toThrow(/notify ids only/);
    expect(() => a.listen("Bad-Name; DROP", () => undefined)).toThrow(/not a channel name/);
    const nowhere = new PgFanout({ connectionString: "postgresql://postgres@127.0.0.1:1/postgres", notifyTimeoutMs: 200, retryMs: 50 });
    await expect(nowhere.notify("phylactery_test_five", { id: "x" })).resolves.toBeUndefined();
    await nowhere.close();
  });

  it("carries approval changes from one instance's connection to another's inbox listeners; malformed ones are dropped", async () => {
    const a = open("fanout-test-approvals-a");
    const b = open("fanout-test-approvals-b");
    const heard: unknown[] = [];
    const stop = onApprovalAnywhere((e) => void heard.push(e), b);
    await stop.ready;
    const change = { type: "approval.created", approvalId: "apv_1", threadId: "t1", status: "pending", at: 5 };
    await a.notify(APPROVALS_CHANNEL, { type: "approval.lost", approvalId: "x" });
    await a.notify(APPROVALS_CHANNEL, change);
    await until(() => heard.length === 1);
    expect(heard).toEqual([change]);
    stop();
  });

  describe("a follower on SQLite woken by PostgreSQL notifications", () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb();
    });
    afterAll(async () => {
      await t.cleanup();
    });

    it("wakes on a notification from another connection, long before its poll", async () => {
      const user = await t.db.user.create({ data: { email: "pg@test.dev" } });
      const flow = await createFlow(t.db, user.id, workspaceAssistant);
      const thread = await createThread(t.db, user.id, flow.id, "Task");
      const run = await t.db.run.create({ data: { threadId: thread.id, flowVersionId: thread.flowVersionId, kind: "start", status: "running" } });
      const writer = open("fanout-test-writer");
      const reader = open("fanout-test-reader");
      const out: FollowedChunk[] = [];
      const done = (async () => {
        for await (const c of followThread(t.db, thread.id, { after: 0, runId: run.id, fanout: reader, pollMs: 60_000 })) out.push(c);
      })();
      // Let the follower read (nothing) and LISTEN before the events are written.
      await new Promise((r) => setTimeout(r, 300));
      const data = { runId: run.id, model: null, error: null };
      const started = Date.now();
      await t.db.runEvent.create({
        data: { threadId: thread.id, runId: run.id, seq: 1, type: "run_started", data: JSON.stringify({ type: "data-run", id: run.id, data: { ...data, status: "running" } }) },
      });
      await notifyThreadEvent(thread.id, 1, run.id, writer);
      await t.db.runEvent.create({
        data: { threadId: thread.id, runId: run.id, seq: 2, type: "run_completed", data: JSON.stringify({ type: "data-run", id: run.id, data: { ...data, status: "completed" } }) },
      });
      await notifyThreadEvent(thread.id, 2, run.id, writer);
      await done;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(out.map((c) => c.seq)).toEqual([1, 2]);
    });
  });
});

/** Waits until `cond` holds (checked every 10 ms, at most 5 s). */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
