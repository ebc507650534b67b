import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db/client";
import { type Client, lastPart, readStream, signIn } from "../http/client";
import { startRun } from "../http/runs";
import { type Cluster, startCluster } from "./cluster";
import { crashLoop, crashSummary } from "./crash-loop";
import { type CountingServer, checkInvariants, countingServer, createPostingFlow, driveRun, poll } from "./side-effects";

/**
 * Durability with real processes on PostgreSQL (docs/durability.md): two web instances that
 * execute no runs (RUN_WORKERS=0) and two `npm run worker` processes, on one database. A run
 * started on one instance is seen, approved and followed on the other; a thread takes one
 * run at a time across instances; workers SIGKILLed at random moments lose no run and never
 * double a side effect.
 *
 * Runs only on the PostgreSQL pass (TEST_DATABASE_URL, scripts/test.sh): the queue and the
 * cross-instance notifications of a cluster are PostgreSQL's (pg-boss, LISTEN/NOTIFY); a
 * SQLite file serves one process, whose crashes embedded-crash.int.test.ts covers.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);

/** Collects a server-sent events response's text as it arrives, until `close`. */
function collectEvents(res: Response): { text: () => string; close: () => Promise<void> } {
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  const pump = (async () => {
    while (true) {
      const next = await reader.read().catch(() => null);
      if (!next || next.done) return;
      text += decoder.decode(next.value, { stream: true });
    }
  })();
  return {
    text: () => text,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await pump;
    },
  };
}

describe.runIf(pg)("a cluster: 2 web instances and 2 workers on PostgreSQL", () => {
  let c: Cluster;
  let db: Db;
  let counter: CountingServer;
  let aliceA: Client;
  let aliceB: Client;
  let carolB: Client;
  let postingFlowId: string;

  beforeAll(async () => {
    counter = await countingServer(400);
    c = await startCluster({
      webs: 2,
      workers: 2,
      database: "postgresql",
      // A short lease, so a killed worker's runs are recovered within seconds.
      env: { OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${counter.port}`, RUN_LEASE_TTL_MS: "3000" },
    });
    const [a, , carol] = c.users;
    const [webA, webB] = c.webs;
    if (!a || !carol || !webA?.url || !webB?.url) throw new Error("cluster fixture missing");
    aliceA = await signIn(webA.url, a.email, a.password);
    aliceB = await signIn(webB.url, a.email, a.password);
    carolB = await signIn(webB.url, carol.email, carol.password);
    postingFlowId = await createPostingFlow(c.dbUrl, a.id, counter.port);
    db = createDb(c.dbUrl);
  }, 180_000);

  afterAll(async () => {
    await db?.$disconnect();
    await c?.stop();
    await counter?.close();
  });

  it("a run started on A pauses; B's inbox shows it live; approved on B, the tool runs once and a follower on A sees the rest", async () => {
    const flowId = c.users[0]?.flowId ?? "";
    // B's inbox events, open before the run starts.
    const events = await carolB.fetch("/api/approvals/events");
    expect(events.status).toBe(200);
    const live = collectEvents(events);
    const { threadId, approval } = await startRun(aliceA, flowId);
    // Announced on B although it was created by a worker for a run accepted on A.
    const announced = await poll(async () => (live.text().includes(approval.approvalId) ? live.text() : null), 10_000);
    await live.close();
    expect(announced).toContain('"status":"pending"');

    const inbox = await carolB.fetch("/api/approvals");
    expect(inbox.status).toBe(200);
    const { items } = (await inbox.json()) as { items: { approvalId: string; threadId: string; toolName: string; token: string | null }[] };
    expect(items.find((i) => i.approvalId === approval.approvalId)).toMatchObject({ threadId, toolName: "write_file" });

    const decided = await carolB.post(`/api/threads/${threadId}/stream`, {
      input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash },
    });
    expect(decided.status).toBe(200);
    const runId = decided.headers.get("x-run-id") ?? "";
    expect(runId).not.toBe("");
    // A follower on A, joined while the run executes on a worker.
    const follow = await aliceA.fetch(`/api/threads/${threadId}/stream?runId=${runId}`);
    expect(follow.status).toBe(200);
    const [followed, onB] = await Promise.all([readStream(follow), readStream(decided)]);
    expect(lastPart(followed, "data-run")?.status).toBe("completed");
    expect(followed.at(-1)?.type === "finish" || followed.some((x) => x.type === "data-run")).toBe(true);
    expect(followed.filter((x) => x.type === "data-tool" && x.data?.toolName === "write_file" && x.data?.status === "done")).toHaveLength(1);
    expect(lastPart(onB, "data-run")?.status).toBe("completed");
    expect(await db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "write_file" } })).toBe(1);
    expect(existsSync(path.join(c.workspacesDir, threadId, "summary.md"))).toBe(true);
    expect(await db.approval.findUniqueOrThrow({ where: { id: approval.approvalId } })).toMatchObject({ status: "consumed", decidedById: c.users[2]?.id });
  }, 90_000);

  it("concurrent messages to one thread over both instances: exactly one run, the rest 409 run_in_progress, never 500", async () => {
    const flowId = c.users[0]?.flowId ?? "";
    const created = await aliceA.post("/api/threads", { flowId, task: "List the files" });
    const { threadId } = (await created.json()) as { threadId: string };
    const posts = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? aliceA : aliceB).post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "List the files" } }));
    const answers = await Promise.all(posts);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const reasons = await Promise.all(answers.filter((r) => r.status === 409).map(async (r) => ((await r.json()) as { error: { reason: string } }).error.reason));
    expect(new Set(reasons)).toEqual(new Set(["run_in_progress"]));
    const ok = answers.find((r) => r.status === 200);
    expect(lastPart(await readStream(ok as Response), "data-run")?.status).toBe("completed");
    expect(await db.run.count({ where: { threadId } })).toBe(1);
    const settled = await poll(async () => ((await db.run.count({ where: { threadId, status: { in: ["queued", "running"] } } })) === 0 ? true : null), 20_000);
    expect(settled).toBe(true);
    expect(await db.thread.findUniqueOrThrow({ where: { id: threadId } })).toMatchObject({ leaseRunId: null, status: "completed" });
  }, 60_000);

  it("workers SIGKILLed at random moments 20 times: every run completes or asks a person, no doubled side effect or step, none stuck", async () => {
    const [webA, webB] = c.webs;
    const result = await crashLoop({
      kills: 20,
      victims: c.workers,
      gapMs: [200, 1200],
      drivers: 4,
      drive: (n) => driveRun(db, [aliceA, aliceB], postingFlowId, counter.port, `pg-${n}`, 60_000),
    });
    const inv = await checkInvariants(db, counter.hits);
    console.info(crashSummary("cluster (PostgreSQL, 2 web + 2 workers)", result, inv.doubledSideEffects.length, inv.doubledSteps.length));
    expect(result.errors, `${webA?.output().slice(-2000)}\n${webB?.output().slice(-2000)}`).toEqual([]);
    expect(result.kills).toBe(20);
    expect(result.runs.length).toBeGreaterThan(4);
    expect(inv.doubledSideEffects).toEqual([]);
    expect(inv.doubledSteps).toEqual([]);
    expect(result.runs.filter((r) => r.stuck)).toEqual([]);
    expect(result.runs.filter((r) => r.status !== "completed" && !r.askedPerson)).toEqual([]);
    expect(inv.leftovers).toEqual([]);
    // Every completed run made its side effect exactly once.
    for (const r of result.runs.filter((x) => x.status === "completed")) expect(counter.hits.get(r.tag), r.tag).toBe(1);
  }, 240_000);
});
