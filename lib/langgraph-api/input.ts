import { z } from "zod";
import { PLATFORM_THREAD_STATUSES } from "./status";

/**
 * Zod pieces the LangGraph Platform API routes share (docs/langgraph-api.md): each route's
 * schema.ts composes them.
 */

/** The most bytes a metadata object may take as JSON (it is stored on the thread). */
export const METADATA_MAX_BYTES = 16 * 1024;

/** A metadata object or filter: string keys, JSON values, at most {@link METADATA_MAX_BYTES} as JSON. */
export const Metadata = z
  .record(z.string().max(200), z.unknown())
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= METADATA_MAX_BYTES, `metadata is larger than ${METADATA_MAX_BYTES} bytes as JSON; keep it small`);

/** A thread id in a path: ours (cuid) or an API thread's (UUID). */
export const ThreadId = z.string().min(1).max(64);

/** An assistant id in a path: a flow id. */
export const AssistantId = z.string().min(1).max(64);

/** A LangGraph checkpoint id (uuid6, lower-case hex). */
export const CheckpointId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "a checkpoint id is a LangGraph uuid, e.g. 1f1e68c6-7193-6070-8000-ffd83c9f9246");

/** A checkpoint reference in a body (`{ checkpoint_id, checkpoint_ns }`; other keys ignored). */
export const CheckpointRef = z.object({ checkpoint_id: CheckpointId.optional(), checkpoint_ns: z.string().max(500).optional(), thread_id: z.string().max(64).optional() });

/** Page size: 1 to 1000, default 10. */
export const Limit = z.number().int().min(1).max(1000).default(10);

/** Rows to skip: 0 to 10,000, default 0. */
export const Offset = z.number().int().min(0).max(10_000).default(0);

/** A sort order. */
export const SortOrder = z.enum(["asc", "desc"]);

/** A Platform thread status. */
export const ThreadStatus = z.enum(PLATFORM_THREAD_STATUSES);

/** Query flags sent as text (`?xray=true`, `?subgraphs=false`, `?xray=2`). */
export const Flag = z.enum(["true", "false"]).transform((v) => v === "true");

/** `select`: fields to keep in each returned object (unknown names are ignored). */
export const Select = z.array(z.string().max(100)).max(50);

/** Keeps only the `select`ed fields of each item, or every field when there is no selection. */
export function pick<T extends object>(items: T[], select: readonly string[] | undefined): Partial<T>[] {
  if (!select || select.length === 0) return items;
  return items.map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => select.includes(k))) as Partial<T>);
}
