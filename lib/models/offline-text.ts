import type { LanguageModelV4Message } from "@ai-sdk/provider";
import { PROMPT_MARKERS, type PromptRole } from "./prompts";

/**
 * Text helpers of the offline model: reading its prompts back (role markers, tagged blocks,
 * file names) and building the summary document it writes. Pure, deterministic.
 */

/**
 * File names the heuristics recognise: text files, and the PDF and Word documents people
 * upload, which read_file reads as their text (docs/documents.md "Extraction").
 */
const FILE_RE = /[\w./-]+\.(?:md|txt|json|csv|log|pdf|docx)\b/g;


export function messageText(m: LanguageModelV4Message): string {
  if (m.role === "system") return m.content;
  return m.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("");
}

export function messageChars(m: LanguageModelV4Message): number {
  if (m.role === "system") return m.content.length;
  return m.content.reduce((n, p) => n + (p.type === "text" ? p.text.length : JSON.stringify(p).length), 0);
}

export function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  return end < 0 ? undefined : text.slice(start + open.length, end);
}

export function unescapeAttr(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

export function fileNames(text: string): string[] {
  return [...new Set(text.match(FILE_RE) ?? [])];
}

export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The candidate named after "into/to/in/as", else the last one. */
export function targetFile(text: string, candidates: string[]): string | undefined {
  const named = candidates.find((c) =>
    new RegExp(`\\b(?:into|to|in|as)\\s+(?:(?:a|an|the|new|file)\\s+)*${escapeRe(c)}`, "i").test(text),
  );
  return named ?? candidates.at(-1);
}

export function detectRole(system: string): PromptRole | undefined {
  const roles = Object.keys(PROMPT_MARKERS) as PromptRole[];
  return roles.find((r) => system.includes(PROMPT_MARKERS[r]));
}

/** List items of a Markdown text ("- …", "* …", "1. …", nested ones too). */
export function countBullets(text: string): number {
  return text.split("\n").filter((l) => /^\s*(?:[-*+]|\d+[.)])\s/.test(l)).length;
}

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Characters of a read file quoted in the step result (the next step only sees this). */
const READ_QUOTE_LIMIT = 6000;

/** The first of `keys` that `value` (an object) has, or undefined. */
export function field(value: unknown, ...keys: string[]): unknown {
  if (!value || typeof value !== "object") return undefined;
  const o = value as Record<string, unknown>;
  return keys.map((k) => o[k]).find((v) => v !== undefined);
}

/** Cuts `text` at {@link READ_QUOTE_LIMIT} characters, saying so. */
export function quote(text: string): string {
  return text.length > READ_QUOTE_LIMIT ? `${text.slice(0, READ_QUOTE_LIMIT)}\n[\u2026 cut at ${READ_QUOTE_LIMIT} characters]` : text;
}
