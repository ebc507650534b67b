import "server-only";
import { Client } from "pg";
import PgBoss from "pg-boss";
import type { RunQueue } from "./queue";

/** The pg-boss queue that carries run jobs. */
const QUEUE = "phylactery-runs";

/** The PostgreSQL NOTIFY channel a dispatch wakes every process's idle run slots on. */
export const WAKE_CHANNEL = "phylactery_run_jobs";

/** How often an idle slot looks for jobs without a wake-up (a NOTIFY lost with a connection), seconds. */
export const PG_POLL_SECONDS = 2;

/**
 * The run queue on PostgreSQL: pg-boss (a maintained PostgreSQL-native queue: SKIP LOCKED
 * fetches, its own schema `pgboss`, created on first start). A message carries only the
 * RunJob id; the RunJob row and the thread's lease stay the truth, so pg-boss is told not to
 * retry (a dead worker's run is recovered through its lapsed lease, see ./worker.ts) and a
 * message sent twice is harmless. Each of the `concurrency` slots is one `work` subscription
 * fetching one job at a time. A dispatch does not wait for a poll: it sends
 * `NOTIFY phylactery_run_jobs`, and every consuming process LISTENs on its own connection
 * and wakes its idle slots at once (pg-boss `notifyWorker`); the slots still poll every
 * `pollSeconds` (default PG_POLL_SECONDS) in case a notification is lost (docs/durability.md#runs-are-jobs).
 */
export function pgBossQueue(connectionString: string, opts: { pollSeconds?: number } = {}): RunQueue {
  const boss = new PgBoss({ connectionString, schema: "pgboss", max: 4, application_name: "phylactery-runs" });
  boss.on("error", () => {
    // Connection hiccups are retried by pg-boss itself; the lease sweeper covers the rest.
  });
  let started: Promise<void> | null = null;
  /** This process's `work` subscriptions, woken on each NOTIFY. */
  const workers: string[] = [];
  let listener: Client | null = null;
  const ready = () => {
    started ??= (async () => {
      await boss.start();
      await createQueueOnce(connectionString, boss);
    })().catch((err: unknown) => {
      started = null; // the next dispatch or consume tries again
      throw err;
    });
    return started;
  };
  return {
    kind: "pg-boss",
    async dispatch(jobId) {
      await ready();
      await boss.send(QUEUE, { jobId }, { retryLimit: 0 });
      // Committed and queued: wake an idle slot in whichever process listens (this one too).
      await boss.getDb().executeSql("SELECT pg_notify($1, '')", [WAKE_CHANNEL]);
    },
    async consume(handler, concurrency) {
      await ready();
      for (let i = 0; i < concurrency; i++) {
        const id = await boss.work<{ jobId: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollSeconds ?? PG_POLL_SECONDS }, async (jobs) => {
          for (const job of jobs) await handler(job.data.jobId);
        });
        workers.push(id);
      }
      listener = new Client({ connectionString, application_name: "phylactery-runs-wake" });
      // A broken LISTEN connection leaves the polling: jobs are still found, only later.
      listener.on("error", () => {});
      listener.on("notification", () => {
        for (const id of workers) boss.notifyWorker(id);
      });
      await listener.connect();
      await listener.query(`LISTEN ${WAKE_CHANNEL}`);
    },
    async stop() {
      await listener?.end().catch(() => {});
      listener = null;
      if (!started) return;
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}

/** Key of the session advisory lock that serialises creating the run queue across processes. */
const CREATE_QUEUE_LOCK = 0x7068_796c_7275_6e71n; // "phylrunq"

/**
 * Creates the run queue unless it exists, holding a PostgreSQL session advisory lock
 * (`pg_advisory_lock`) on a connection of its own meanwhile. pg-boss's `createQueue` inserts
 * the queue row and creates its partition table in one transaction; two processes doing it at
 * once on a fresh database (a cluster's first start: web instances and workers together)
 * deadlock (40P01), and the loser's process failed to start. Under the lock the second process
 * finds the queue made by the first. The lock ends with the connection, also if this process
 * dies holding it.
 * @throws whatever connecting or pg-boss throws; `ready` then tries again on the next call.
 */
async function createQueueOnce(connectionString: string, boss: PgBoss): Promise<void> {
  const client = new Client({ connectionString, application_name: "phylactery-runs-setup" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [CREATE_QUEUE_LOCK.toString()]);
    if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 0, expireInSeconds: 60 * 60 });
  } finally {
    await client.end(); // ends the session, and with it the lock
  }
}
