import "server-only";
import PgBoss from "pg-boss";
import type { RunQueue } from "./queue";

/** The pg-boss queue that carries run jobs. */
const QUEUE = "phylactery-runs";

/**
 * The run queue on PostgreSQL: pg-boss (a maintained PostgreSQL-native queue: SKIP LOCKED
 * fetches, its own schema `pgboss`, created on first start). A message carries only the
 * RunJob id; the RunJob row and the thread's lease stay the truth, so pg-boss is told not to
 * retry (a dead worker's run is recovered through its lapsed lease, see ./worker.ts) and a
 * message sent twice is harmless. Each of the `concurrency` slots is one `work` subscription
 * fetching one job at a time, polling every 0.5 s (pg-boss's minimum) when idle.
 */
export function pgBossQueue(connectionString: string): RunQueue {
  const boss = new PgBoss({ connectionString, schema: "pgboss", max: 4, application_name: "phylactery-runs" });
  boss.on("error", () => {
    // Connection hiccups are retried by pg-boss itself; the lease sweeper covers the rest.
  });
  let started: Promise<void> | null = null;
  const ready = () => {
    started ??= (async () => {
      await boss.start();
      if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 0, expireInSeconds: 60 * 60 });
    })();
    return started;
  };
  return {
    kind: "pg-boss",
    async dispatch(jobId) {
      await ready();
      await boss.send(QUEUE, { jobId }, { retryLimit: 0 });
    },
    async consume(handler, concurrency) {
      await ready();
      for (let i = 0; i < concurrency; i++) {
        await boss.work<{ jobId: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) await handler(job.data.jobId);
        });
      }
    },
    async stop() {
      if (!started) return;
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}
