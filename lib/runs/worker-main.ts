/**
 * `npm run worker`: a process that executes runs and nothing else (docs/durability.md#runs-are-jobs).
 * Run as many as the machine has cores to spare, beside web instances started with
 * RUN_WORKERS=0; each one executes RUN_WORKERS runs at once (default 4). It also runs the
 * sweepers whose work is the workers' (memory after-run hooks, checkpoint pruning). SIGTERM
 * or SIGINT stops it gracefully: it takes no new job and finishes the ones it runs; a kill
 * leaves them to another worker, which continues them from their last checkpoint once
 * their leases lapse.
 */
import { db } from "../db/client";
import { env } from "../env";
import { logger } from "../log";
import { installMemoryHooks } from "../memory/after-run-hooks";
import { startTelemetry } from "../telemetry";
import { startWorker } from "./worker";

const log = logger.child({ module: "worker-main" });

async function main(): Promise<void> {
  const settings = env();
  await startTelemetry();
  installMemoryHooks(db(), (err, threadId) => log.error({ err, threadId }, "memory: summarize or promote after a run failed"));
  const concurrency = Math.max(1, settings.RUN_WORKERS);
  const worker = await startWorker({ db: db(), databaseUrl: settings.DATABASE_URL, concurrency, leaseTtlMs: settings.RUN_LEASE_TTL_MS });
  console.log(`Phylactery worker ${worker.id} is executing runs (${worker.queue.kind} queue, ${concurrency} at once)`);
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, "stopping: finishing the runs in progress");
      void worker.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, "stop failed");
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err: unknown) => {
  log.fatal({ err }, "the worker could not start");
  process.exit(1);
});
