import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import { purgeExpired } from "./short-term";
import { logger } from "../log";

/**
 * The short-term memory sweeper (entries live for a TTL): every `intervalMs`
 * (default `MEMORY_SWEEP_MS`, 60 s) deletes the expired entries. The timer is unref'd, so
 * it never keeps a process alive, and sweeps never overlap.
 * @returns the function that stops it.
 */
export function startMemorySweeper(db: Db, intervalMs: number = env().MEMORY_SWEEP_MS): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    purgeExpired(db)
      .catch((err) => logger.error({ err }, "memory sweeper failed"))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
