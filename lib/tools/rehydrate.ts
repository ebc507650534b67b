import { z } from "zod";
import { AppError } from "../errors";
import type { ToolDefinition } from "./types";

/** Evicted outputs below this size (chars) may be read back into a model's context (docs/architecture.md#retries-limits-and-eviction). */
export const REHYDRATION_LIMIT_CHARS = 50_000;

const Input = z.object({
  pointer: z
    .string()
    .regex(/^blob:[A-Za-z0-9_-]{6,64}$/, "a pointer looks like blob:<id>, as shown in [EVICTED size=N] See blob:<id>")
    .describe("The pointer of an evicted output, from a result like `[EVICTED size=N] See blob:<id>`."),
});
const Output = z.object({ pointer: z.string(), sizeChars: z.number().int(), content: z.string() });

/**
 * `rehydrate`: reads an evicted tool output of this thread back (allowed when the
 * original is under 50,000 chars). The tool sees only the thread's blob reader, never the
 * engine or the database.
 * @throws AppError not_found (no such output in this thread), forbidden (too large to rehydrate).
 */
export const rehydrate: ToolDefinition<z.infer<typeof Input>, z.infer<typeof Output>> = {
  name: "rehydrate",
  version: "1.0.0",
  description: "Read back a tool output that was evicted from the conversation because it was long. Works for outputs under 50,000 characters.",
  input: Input,
  output: Output,
  timeoutMs: 10_000,
  permission: "user",
  sideEffect: false,
  async run({ pointer }, ctx) {
    const blob = await ctx.blobs?.read(pointer);
    if (!blob) throw new AppError("not_found", "blob_not_found", `No evicted output ${pointer} in this thread.`);
    if (blob.sizeChars >= REHYDRATION_LIMIT_CHARS) {
      throw new AppError("forbidden", "rehydration_not_allowed", `${pointer} has ${blob.sizeChars} chars; only outputs under ${REHYDRATION_LIMIT_CHARS} can be rehydrated.`);
    }
    return { pointer, sizeChars: blob.sizeChars, content: blob.content };
  },
};
