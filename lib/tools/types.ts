import type { z } from "zod";

/** Permission level a tool needs (SPEC.md 3: security context). */
export type PermissionLevel = "user" | "admin" | "system";

/**
 * What a running tool may see: its sandbox directory and an abort signal. Tools never get
 * the engine, agents or policies (SPEC.md 7).
 */
export interface ToolContext {
  /** Absolute path of the thread's workspace directory (the sandbox root). */
  workspaceDir: string;
  /** Aborted when the gateway's timeout fires. */
  signal: AbortSignal;
  /** Read access to this thread's evicted outputs (for `rehydrate`); absent outside runs. */
  blobs?: BlobReader;
}

/** Reads one of the thread's evicted tool outputs by pointer (`blob:<id>`). */
export interface BlobReader {
  read(pointer: string): Promise<{ content: string; sizeChars: number } | null>;
}

/**
 * A declared tool (SPEC.md 7): name, version, description, input/output zod schemas,
 * timeout (ms), permission level and side-effect flag.
 */
export interface ToolDefinition<I = unknown, O = unknown> {
  name: string;
  version: string;
  description: string;
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  /** Wall-clock limit, ms (SPEC.md 7: 30 s default). */
  timeoutMs: number;
  permission: PermissionLevel;
  sideEffect: boolean;
  run(input: I, ctx: ToolContext): Promise<O>;
}

/** What the gateway returns for one call; `output` is the text the agent sees. */
export interface ToolRunResult {
  status: "success" | "error";
  /** Output as text (JSON-stringified when the tool returned an object), capped in size. */
  output: string;
  /** Original output length in chars, before any cap. */
  sizeChars: number;
  /** Machine code of the failure when status is "error" (e.g. "sandbox_violation"). */
  errorCode?: string;
  durationMs: number;
}
