/**
 * `npm run worker`: a process that executes runs and nothing else (docs/durability.md#runs-are-jobs).
 * Run as many as the machine has cores to spare, beside web instances started with
 * RUN_WORKERS=0; each one executes RUN_WORKERS runs at once (default 4). It also runs the
 * sweepers and hooks whose work is the workers' (lib/runs/background.ts). SIGTERM
 * or SIGINT stops it gracefully: it takes no new job and finishes the ones it runs; a kill
 * leaves them to another worker, which continues them from their last checkpoint once
 * their leases lapse.
 *
 * The web process with `RUN_IN=process` forks it as its worker child (lib/runs/worker-child.ts):
 * then it tells its parent when it is ready, and stops the same way when the IPC channel
 * closes (its parent died), within {@link ORPHAN_GRACE_MS}.
 */
import { db } from "../db/client";
import { env } from "../env";
import { logger } from "../log";
import { closeCheckpointStores } from "../db/checkpointer-stores";
import { WORKER_CHILD_ENV } from "../events/ipc-fanout";
import { startTelemetry } from "../telemetry";
import { startBackgroundWork } from "./background";
import { WORKER_READY_MESSAGE } from "./worker-child";

const log = logger.child({ module: "worker-main" });

/** How long a worker child whose parent died may finish its runs before it exits anyway, ms (their leases then lapse: the next start continues them). */
export const ORPHAN_GRACE_MS = 8_000;

async function main(): Promise<void> {
  const settings = env();
  await startTelemetry();
  if (settings.RUN_WORKERS === 0) throw new Error("RUN_WORKERS=0: a worker process needs at least one run slot (it defaults to 4).");
  const worker = await startBackgroundWork(db(), { worker: true });
  if (!worker) throw new Error("the worker did not start");
  const concurrency = settings.RUN_WORKERS;
  const child = process.env[WORKER_CHILD_ENV] === "1" && typeof process.send === "function";
  console.log(`Phylactery worker ${worker.id} is executing runs (${worker.queue.kind} queue, ${concurrency} at once${child ? ", child of the web process" : ""})`);
  let stopping = false;
  const stop = (why: Record<string, unknown>, graceMs?: number) => {
    if (stopping) return;
    stopping = true;
    log.info(why, "stopping: finishing the runs in progress");
    if (graceMs !== undefined) setTimeout(() => process.exit(0), graceMs);
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
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop({ signal }));
  if (child) {
    process.on("disconnect", () => stop({ reason: "the web process is gone" }, ORPHAN_GRACE_MS));
    process.send?.({ t: WORKER_READY_MESSAGE, workerId: worker.id });
  }
}

main().catch((err: unknown) => {
  log.fatal({ err }, "the worker could not start");
  process.exit(1);
});
