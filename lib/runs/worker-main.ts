/**
 * `npm run worker`: a process that executes runs and nothing else (docs/durability.md#runs-are-jobs).
 * Run as many as the machine has cores to spare, beside web instances started with
 * RUN_WORKERS=0; each one executes RUN_WORKERS runs at once (default 4). It also runs the
 * sweepers and hooks whose work is the workers' (lib/runs/background.ts). SIGTERM
 * or SIGINT stops it gracefully: it takes no new job and finishes the ones it runs; a kill
 * leaves them to another worker, which continues them from their last checkpoint once
 * their leases lapse.
 */
import { db } from "../db/client";
import { env } from "../env";
import { logger } from "../log";
import { closeCheckpointStores } from "../db/checkpointer-stores";
import { startTelemetry } from "../telemetry";
import { startBackgroundWork } from "./background";

const log = logger.child({ module: "worker-main" });

async function main(): Promise<void> {
  const settings = env();
  await startTelemetry();
  if (settings.RUN_WORKERS === 0) throw new Error("RUN_WORKERS=0: a worker process needs at least one run slot (it defaults to 4).");
  const worker = await startBackgroundWork(db());
  if (!worker) throw new Error("the worker did not start");
  const concurrency = settings.RUN_WORKERS;
  console.log(`Phylactery worker ${worker.id} is executing runs (${worker.queue.kind} queue, ${concurrency} at once)`);
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, "stopping: finishing the runs in progress");
      void worker
        .stop()
        .then(() => closeCheckpointStores())
        .then(
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
