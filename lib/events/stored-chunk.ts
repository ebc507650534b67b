import type { RunChunk } from "./ui-parts";

/** A RunEvent row as far as its chunk goes. */
export interface StoredChunkRow {
  seq: number;
  /** The event's name (lib/events/run-events.ts), or in rows stored before names the chunk type. */
  type: string;
  /** JSON text of what was stored. */
  data: string;
}

/**
 * The stream chunk a stored run event stands for, exactly as the run's stream yielded it
 * (lib/events/run-events.ts stores the chunk itself), except live approval tokens, which
 * are never stored (docs/security.md "Secrets at rest"; see lib/events/viewer-chunk.ts).
 * Null for a stored-only record (user_message, `{ type: "event" }` records such as
 * intent_classified, agent_changed, thread_forked) and for rows that are not JSON.
 * Rows from before events were named (type = the chunk type, e.g. "data-plan", "text",
 * "user-message") read the same way.
 */
export function chunkOfStored(row: StoredChunkRow): RunChunk | null {
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(row.data);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    data = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  if (row.type === "user_message" || row.type === "user-message") return null;
  const type = typeof data.type === "string" ? data.type : row.type;
  if (type === "text") return { type: "text", id: typeof data.id === "string" ? data.id : `text-${row.seq}`, text: String(data.text ?? "") };
  if (!type.startsWith("data-") || !("data" in data)) return null;
  return { type, id: String(data.id ?? ""), data: data.data } as RunChunk;
}
