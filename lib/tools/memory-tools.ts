import { z } from "zod";
import { AppError } from "../errors";
import type { MemoryAccess, RecalledFact, ToolDefinition } from "./types";

/**
 * `remember` and `recall`: the workspace's long-term memory as tools (upsert_fact
 * and search). The engine binds `ctx.memory` to the calling
 * workspace, thread and step, so a tool can never name another tenant's memory.
 */

/** Longest fact, chars. */
export const MAX_FACT_CHARS = 2_000;
/** Most tags on a fact or a recall filter. */
export const MAX_TAGS = 10;
/** Most facts one recall returns. */
export const MAX_RECALL = 10;
const TIMEOUT_MS = 10_000;

const tag = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N}_:.-]+$/u, "one word: letters, digits, _ : . -");

/** @throws AppError forbidden / "memory_off" when the run has no memory. */
function requireMemory(memory: MemoryAccess | undefined, tool: string): MemoryAccess {
  if (!memory) {
    throw new AppError("forbidden", "memory_off", `Memory is off for this flow, so ${tool} cannot be used; turn memory on in Flow settings (or remove ${tool} from the agent).`);
  }
  return memory;
}

const RememberInput = z.object({
  content: z.string().trim().min(1).max(MAX_FACT_CHARS).describe('The fact to keep, as one self-contained sentence (at most 2,000 chars), e.g. "The staging server is staging.example.com".'),
  tags: z.array(tag).max(MAX_TAGS).default([]).describe('Up to 10 one-word tags to find the fact again, e.g. ["servers"].'),
});
const RememberOutput = z.object({ id: z.string(), created: z.boolean() });

/** remember: stores a fact in the workspace's long-term memory (or merges it with an equal one). */
export const remember: ToolDefinition<z.infer<typeof RememberInput>, z.infer<typeof RememberOutput>> = {
  name: "remember",
  version: "1.0.0",
  description:
    "Store a fact in the workspace's long-term memory so later runs can recall it. Returns its id and whether it is new (false when an equal fact was merged). Needs approval unless a policy allows it.",
  input: RememberInput,
  output: RememberOutput,
  timeoutMs: TIMEOUT_MS,
  permission: "user",
  sideEffect: true,
  async run({ content, tags }, ctx) {
    return requireMemory(ctx.memory, "remember").remember({ content, tags });
  },
};

const RecallInput = z.object({
  query: z.string().trim().min(1).max(MAX_FACT_CHARS).describe('What to look for, in words, e.g. "staging server".'),
  limit: z.number().int().min(1).max(MAX_RECALL).default(5).describe("Most facts to return (1 to 10, default 5)."),
  tags: z.array(tag).max(MAX_TAGS).optional().describe("Only facts with all of these tags."),
});
const Fact = z.object({
  id: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  score: z.number(),
  source: z.object({ threadId: z.string().nullable(), stepId: z.string().nullable() }),
}) satisfies z.ZodType<RecalledFact>;
const RecallOutput = z.object({ facts: z.array(Fact) });

/** recall: the workspace's accepted facts most relevant to a query, best first. */
export const recall: ToolDefinition<z.infer<typeof RecallInput>, z.infer<typeof RecallOutput>> = {
  name: "recall",
  version: "1.0.0",
  description: "Search the workspace's long-term memory. Returns up to `limit` facts (content, tags, relevance score), most relevant first.",
  input: RecallInput,
  output: RecallOutput,
  timeoutMs: TIMEOUT_MS,
  permission: "user",
  sideEffect: false,
  async run({ query, limit, tags }, ctx) {
    const facts = await requireMemory(ctx.memory, "recall").recall({ query, limit, ...(tags ? { tags } : {}) });
    return { facts: facts.slice(0, limit) };
  },
};
