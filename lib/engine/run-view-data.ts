import "server-only";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import type { StructuredError } from "../errors";

/**
 * What the run view reads besides the stored run events (issue 5 "Run view"): the
 * structured error of the thread's latest state (the stream's run part carries only its
 * code and message). The caller has checked that the user may see the thread
 * (lib/db/workspaces.ts threadAccess).
 */

const SEVERITIES = new Set(["INFO", "WARNING", "CRITICAL"]);

/** Type guard for a {@link StructuredError} read back from a checkpoint. */
function isStructuredError(v: unknown): v is StructuredError {
  const e = v as Partial<StructuredError> | null;
  return Boolean(e && typeof e.code === "string" && typeof e.message === "string" && SEVERITIES.has(String(e.severity)) && typeof e.retryable === "boolean");
}

/** The structured error (SPEC.md 3) in the thread's latest checkpoint, or null. */
export async function latestStructuredError(db: Db, threadId: string): Promise<StructuredError | null> {
  const tuple = await new PrismaCheckpointSaver(db).getTuple({ configurable: { thread_id: threadId } });
  const error = tuple?.checkpoint.channel_values.error;
  return isStructuredError(error) ? error : null;
}
