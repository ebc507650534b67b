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

/** A file name between quotes ("…", “…”, '…', `…`): spaces allowed. */
const QUOTED_RE =
  /"([^"\n]+?\.(?:md|txt|json|csv|log|pdf|docx))"|“([^”\n]+?\.(?:md|txt|json|csv|log|pdf|docx))”|'([^'\n]+?\.(?:md|txt|json|csv|log|pdf|docx))'|`([^`\n]+?\.(?:md|txt|json|csv|log|pdf|docx))`/g;

/** Words of a task that are never part of a file name before it ("Summarize", "of", "the"). */
const NOT_NAME_WORDS = new Set(
  (
    "a an the and or of in into to as on for at by from with about than then also please my our your their his her its this that these those " +
    "file files document documents doc pdf docx read write open compare summarize summarise summary condense brief review check list find search count " +
    "collect extract copy rename delete remove update append merge combine answer explain describe analyze analyse draft make create save put use take get " +
    "is are was be what which does do say says said see both each all between vs versus plus " +
    "résume résumer resume resumir lis lire lee leer écris écrire escribe traduis traduce dans en de du des la le les el los las un une et ou y o avec con sur para pour"
  ).split(" "),
);

/**
 * The words just before a file name that belong to it, in a task ("Summarize Q3 report.pdf"
 * gives "Q3 "): at most 4 plain words, none of {@link NOT_NAME_WORDS}, the first starting with
 * a capital or a digit (at a sentence's start, holding a digit or a second capital: "Q3",
 * "ACME"); "" when there are none.
 */
function nameHead(before: string): string {
  if (!/[^\S\n]$/.test(before) || / {2}$/.test(before)) return "";
  const words: string[] = [];
  for (const w of before.trimEnd().split(" ").reverse()) {
    if (words.length === 4 || !/^[\p{L}\p{N}][\p{L}\p{N}&()+_.-]*$/u.test(w) || NOT_NAME_WORDS.has(w.toLowerCase())) break;
    words.unshift(w);
  }
  const all = before.trimEnd().split(" ");
  while (words.length > 0) {
    const first = words[0] ?? "";
    // The first word of a sentence is capitalized anyway ("Résume …"): only "Q3" or "ACME" count there.
    const lead = all
      .slice(0, all.length - words.length)
      .join(" ")
      .trimEnd();
    const sentenceStart = lead === "" || /[.:;!?]$/.test(lead);
    if (/^[\p{Lu}\p{N}]/u.test(first) && (!sentenceStart || /\p{N}|^.\P{Lu}*\p{Lu}/u.test(first))) break;
    words.shift();
  }
  return words.length > 0 ? `${words.join(" ")} ` : "";
}

/**
 * The file names a text names, in order, each once (docs/documents.md "Extraction"): quoted
 * names may hold spaces (`"Q3 report.pdf"`); with `spaced` (a task's text), so may an unquoted
 * name whose words before the last start with a capital or a digit ("Summarize Q3 report.pdf
 * into summary.md" names "Q3 report.pdf").
 */
export function fileNames(text: string, opts: { spaced?: boolean } = {}): string[] {
  const found: { at: number; name: string }[] = [];
  let rest = text;
  for (const m of text.matchAll(QUOTED_RE)) {
    const name = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (!name) continue;
    found.push({ at: m.index, name });
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice(m.index + m[0].length);
  }
  for (const m of rest.matchAll(FILE_RE)) {
    const head = opts.spaced ? nameHead(rest.slice(0, m.index)) : "";
    found.push({ at: m.index - head.length, name: head + m[0] });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.name))];
}

/** The file names a task names, spaces allowed ({@link fileNames} with `spaced`). */
export const taskFileNames = (task: string) => fileNames(task, { spaced: true });

export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The candidate named after "into/to/in/as", else the last one. */
export function targetFile(text: string, candidates: string[]): string | undefined {
  const named = candidates.find((c) => new RegExp(`\\b(?:into|to|in|as)\\s+(?:(?:a|an|the|new|file)\\s+)*${escapeRe(c)}`, "i").test(text));
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
