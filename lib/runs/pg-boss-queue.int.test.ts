import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../db/test-db";
import { pgBossQueue } from "./pg-boss-queue";
import type { RunQueue } from "./queue";

const pg = testDialect() === "postgresql";

/**
 * A cluster's first start on a fresh PostgreSQL database: every web instance and worker sets up
 * pg-boss and the run queue at the same moment. Creating the queue concurrently deadlocked
 * (40P01) and killed the losing worker (seen in CI); the setup is serialised now.
 */
describe.runIf(pg)("the pg-boss run queue started by many processes at once", () => {
  let database: TestDatabase | null = null;
  let queues: RunQueue[] = [];
  afterEach(async () => {
    await Promise.allSettled(queues.map((q) => q.stop()));
    queues = [];
    await database?.drop();
    database = null;
  });

  // Without the fix one start in about three deadlocked: four fresh starts make a miss unlikely.
  it.each([1, 2, 3, 4])("start %i: six instances set up one queue on a fresh database without failing, and dispatched jobs reach consumers", { timeout: 60_000 }, async () => {
    database = await createTestDatabase();
    const url = database.url;
    // Separate pools, as separate processes have; half consume (workers), half dispatch (web).
    queues = Array.from({ length: 6 }, () => pgBossQueue(url));
    const seen: string[] = [];
    const consumers = queues.slice(0, 3).map((q) => q.consume(async (jobId) => void seen.push(jobId), 1));
    const dispatchers = queues.slice(3).map((q, i) => q.dispatch(`job-${i}`));
    const settled = await Promise.allSettled([...consumers, ...dispatchers]);
    expect(settled.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    const deadline = Date.now() + 20_000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(seen.sort()).toEqual(["job-0", "job-1", "job-2"]);
  });
});

/**
 * Approve -> tool starts (docs/durability.md#runs-are-jobs): a dispatched job reaches an idle
 * slot of another process through NOTIFY, not the next poll. The slots here poll once a
 * minute, so only the wake-up can deliver the job within the test's time.
 */
describe.runIf(pg)("a dispatch wakes idle run slots through LISTEN/NOTIFY", () => {
  let database: TestDatabase | null = null;
  let queues: RunQueue[] = [];
  afterEach(async () => {
    await Promise.allSettled(queues.map((q) => q.stop()));
    queues = [];
    await database?.drop();
    database = null;
  });

  it("a job dispatched by one process is handled by another's idle slot without waiting for its poll", { timeout: 60_000 }, async () => {
    database = await createTestDatabase();
    const worker = pgBossQueue(database.url, { pollSeconds: 60 });
    const web = pgBossQueue(database.url, { pollSeconds: 60 });
    queues = [worker, web];
    const seen: string[] = [];
    await worker.consume(async (jobId) => void seen.push(jobId), 2);
    // pg-boss's first poll happens as the slot starts: let it pass, so only a wake-up is left.
    await new Promise((r) => setTimeout(r, 1_000));
    await web.dispatch("job-woken");
    const deadline = Date.now() + 20_000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(["job-woken"]);
  });
});
