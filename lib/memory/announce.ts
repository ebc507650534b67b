import { type BusEvent, type BusTopic, currentTraceIds, publish } from "../events/bus";
import { logger } from "../log";

/**
 * Publishing the memory service's events (docs/architecture.md#events-and-telemetry): inside a run they carry the run's
 * trace, thread and run ids (lib/log.ts context); outside one, a fresh trace id. A failing
 * subscriber (a log sink, say) never undoes or fails the memory operation that already
 * happened: its error is logged.
 */

/** Publishes a `memory.*` event for a thread (or none), at `at` ms. */
export async function announce<T extends BusTopic>(topic: T, threadId: string | null, data: BusEvent<T>["data"], at: number = Date.now()): Promise<void> {
  const ids = currentTraceIds();
  try {
    await publish({ topic, ...ids, threadId: threadId ?? ids.threadId, at, data } as BusEvent<T>);
  } catch (err) {
    logger.error({ err, topic }, "memory: publishing an event failed");
  }
}
