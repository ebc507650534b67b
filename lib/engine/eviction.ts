import type { ToolRunResult } from "../tools/types";
import type { EngineDeps } from "./deps";
import type { ToolResultState } from "./state";

/** Outputs longer than this (chars, original size) leave the state (docs/architecture.md#the-graph). */
export const EVICT_OVER_CHARS = 10_000;
/** Evicted outputs shorter than this (chars) may be rehydrated (docs/architecture.md#retries-limits-and-eviction). */
export const REHYDRATE_UNDER_CHARS = 50_000;

/** The text left in the state in place of an evicted output (docs/architecture.md#retries-limits-and-eviction). */
export const evictedMarker = (sizeChars: number, pointer: string): string => `[EVICTED size=${sizeChars}] See ${pointer}`;

/**
 * Builds the state's `last_tool_result` for a tool run, applying the Interpreter's eviction
 * rule by ORIGINAL size (docs/architecture.md#the-graph): over 10,000 chars the output goes to blob storage and
 * the state keeps `[EVICTED size=N] See <pointer>`, `size_chars`, `pointer`, `evicted` and
 * `rehydration_allowed` (size < 50,000). Applied where the output enters the state, so no
 * checkpoint ever holds a large output.
 */
export async function toolResultState(deps: EngineDeps, threadId: string, call: { name: string; id: string }, res: ToolRunResult): Promise<ToolResultState> {
  const base = { tool_name: call.name, call_id: call.id, size_chars: res.sizeChars, metadata: { durationMs: res.durationMs, ...(res.errorCode ? { code: res.errorCode } : {}) } };
  if (res.sizeChars <= EVICT_OVER_CHARS) {
    return { ...base, output: res.output, status: res.status, evicted: false, pointer: null, rehydration_allowed: false };
  }
  const pointer = await deps.blobs.put(threadId, call.name, call.id, res.output);
  return {
    ...base,
    output: evictedMarker(res.sizeChars, pointer),
    status: res.status === "success" ? "evicted" : "error",
    evicted: true,
    pointer,
    rehydration_allowed: res.sizeChars < REHYDRATE_UNDER_CHARS,
  };
}
