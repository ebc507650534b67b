import { createHash } from "node:crypto";
import type { MemoryFact } from "../../generated/prisma/client";
import { AppError } from "../errors";
import type { FactOrigin, FactStatus, FactView } from "./types";

/**
 * Rules and shapes shared by the long-term memory modules (docs/architecture.md#memory): how a fact's content
 * and tags are normalised, its dedupe hash, and the row -> {@link FactView} mapping.
 */

/** Longest fact, chars (after trimming). */
export const MAX_FACT_CHARS = 2_000;
/** Most tags a fact carries. */
export const MAX_TAGS = 10;
/** Longest tag, chars. */
export const MAX_TAG_CHARS = 40;

/**
 * The content as stored: trimmed, 1..{@link MAX_FACT_CHARS} chars.
 * @throws AppError unprocessable ("invalid_content") naming `content`.
 */
export function cleanContent(content: string): string {
  const trimmed = content.trim();
  if (trimmed.length === 0) throw new AppError("unprocessable", "invalid_content", "content: a fact needs some text.");
  if (trimmed.length > MAX_FACT_CHARS) throw new AppError("unprocessable", "invalid_content", `content: at most ${MAX_FACT_CHARS} characters (got ${trimmed.length}).`);
  return trimmed;
}

/** Normalised form used for the dedupe hash: NFKC, lower-case, whitespace collapsed, trimmed. */
export function normaliseContent(content: string): string {
  return content.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** SHA-256 (hex) of the normalised content: a fact stated twice in a workspace has one row. */
export function contentHash(content: string): string {
  return createHash("sha256").update(normaliseContent(content), "utf8").digest("hex");
}

/**
 * Tags as stored: trimmed, lower-cased, whitespace turned into `-`, empty ones dropped,
 * de-duplicated in first-seen order.
 * @throws AppError unprocessable ("invalid_tags") naming `tags` when more than
 *   {@link MAX_TAGS} remain or one is longer than {@link MAX_TAG_CHARS} chars.
 */
export function cleanTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase().replace(/\s+/g, "-");
    if (!tag || out.includes(tag)) continue;
    if (tag.length > MAX_TAG_CHARS) throw new AppError("unprocessable", "invalid_tags", `tags: each tag is at most ${MAX_TAG_CHARS} characters.`);
    out.push(tag);
  }
  if (out.length > MAX_TAGS) throw new AppError("unprocessable", "invalid_tags", `tags: at most ${MAX_TAGS} tags (got ${out.length}).`);
  return out;
}

/** The stored JSON tag array of a row (bad JSON reads as no tags). */
export function tagsOf(row: Pick<MemoryFact, "tags">): string[] {
  try {
    const parsed: unknown = JSON.parse(row.tags);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/** The stored embedding of a row, or null (none, or unreadable). */
export function embeddingOf(row: Pick<MemoryFact, "embedding">): number[] | null {
  if (!row.embedding) return null;
  try {
    const parsed: unknown = JSON.parse(row.embedding);
    return Array.isArray(parsed) && parsed.every((n) => typeof n === "number") ? parsed : null;
  } catch {
    return null;
  }
}

/** The client-safe view of a fact row (no hash, no embedding). */
export function toFactView(row: MemoryFact): FactView {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    content: row.content,
    tags: tagsOf(row),
    agentRole: row.agentRole,
    origin: row.origin as FactOrigin,
    status: row.status as FactStatus,
    source: { threadId: row.sourceThreadId, stepId: row.sourceStepId },
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
