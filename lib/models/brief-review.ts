import { cleanInline, outlineOf, sentencesOf } from "./document-outline";
import type { SourceText } from "./source-text";

/**
 * The offline Reviewer's check of a draft against the sources it read: every point of the
 * draft must be found in a source (in the one it cites, when it cites one), and every
 * source must be used by some point. The verdict's text follows the contract the
 * Supervisor parses: a first line `Verdict: approved` or `Verdict: changes needed`, then one
 * line per problem, `- Unsupported: <point>` or `- Unused source: <file>`. It also checks
 * the draft's shape: a point must not repeat another (`- Repeated: <point>`), and a heading
 * must not gather points of sources about unrelated subjects, such as two different
 * products (`- Mixed subjects: <heading> (<files>)`).
 */

/** Share of a point's content words that must appear in a source for the source to support it. */
export const SUPPORT_RATIO = 0.8;

const STOP = new Set(
  "the a an and or but of on to in for with about at by from as is are was were be been being it its this that these those there their they them we our you your he she his her will would can could should must may might shall has have had do does did not no so than then also into over under up out per via each every all any some more most less only just very"
    .split(" ")
    .filter((w) => w !== "may"),
);

/** A claim of the draft with the sources it cites. */
export interface Claim {
  /** The point as written, without its citation. */
  text: string;
  cites: string[];
  /** The headings the point sits under, outermost first, joined by " › " ("" before the first heading). */
  heading?: string;
}

/** The subject words of a source: the stems of its title (its first heading). */
function subjectOf(source: SourceText): string[] {
  const outline = outlineOf(source.text);
  const title = outline.title ?? outline.sections.find((s) => s.level > 0)?.title ?? "";
  return stems(cleanInline(title));
}

/**
 * True when two sources may be about the same subject: a word of one's title appears in
 * the other's text. A source without a title is taken as related (nothing says otherwise).
 */
export function relatedSources(a: SourceText, b: SourceText): boolean {
  const [sa, sb] = [subjectOf(a), subjectOf(b)];
  if (sa.length === 0 || sb.length === 0) return true;
  const [wa, wb] = [new Set(stems(cleanInline(a.text))), new Set(stems(cleanInline(b.text)))];
  return sa.some((w) => wb.has(w)) || sb.some((w) => wa.has(w));
}

/** Two claims say the same thing: the same content words (9 in 10 of the longer one's). */
function sameClaim(a: string, b: string): boolean {
  const [x, y] = [new Set(stems(a)), new Set(stems(b))];
  if (x.size === 0 || y.size === 0) return false;
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / Math.max(x.size, y.size) >= 0.9;
}

/** Content words of a text, reduced to their first five letters; numbers kept whole. */
function stems(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}.,%:-]*[\p{L}\p{N}%]|[\p{L}\p{N}]/gu) ?? [])
    .map((w) => w.replace(/[.,:-]+$/, ""))
    .filter((w) => (/\d/.test(w) ? true : w.length > 2 && !STOP.has(w)))
    .map((w) => (/\d/.test(w) ? w.replace(/,/g, "") : w.slice(0, 5)));
}

/** A source prepared for look-ups: its stems and its numbers. */
interface Indexed {
  file: string;
  words: Set<string>;
}

function indexOf(source: SourceText): Indexed {
  return { file: source.file, words: new Set(stems(cleanInline(source.text))) };
}

/** How much of `claim` the source holds: 0..1; a number the source lacks makes it 0. */
function support(claim: string, source: Indexed): number {
  const words = stems(claim);
  if (words.length === 0) return 0;
  if (words.some((w) => /\d/.test(w) && !source.words.has(w))) return 0;
  return words.filter((w) => source.words.has(w)).length / words.length;
}

const CITATION = /\s*\((?:source|sources|from):\s*([^)]+)\)\s*\.?$/i;
/** Lines that frame the draft rather than claim something: italics, labels, "Sources: …". */
const FRAME = /^(?:_.*_|\*[^*].*\*|(?:for|focus|audience|sources?|source files?|collected from|prepared for)\s*:.*)$/i;

/**
 * The claims of a draft: each list item and each sentence of a paragraph, with the sources
 * it cites ("(source: a.md)", "(sources: a.md, b.md)"). Headings, italic notes and framing
 * lines ("Sources: …", "For: …") are not claims; nor are points with no content words.
 */
export function claimsOf(draft: string): Claim[] {
  const claims: Claim[] = [];
  const add = (raw: string) => {
    const cited = CITATION.exec(raw);
    const text = (cited ? raw.slice(0, cited.index) : raw).trim();
    if (!text || FRAME.test(text) || stems(text).length === 0) return;
    const cites = cited?.[1]
      ? cited[1]
          .split(/,|\band\b/)
          .map((c) => c.trim())
          .filter(Boolean)
      : [];
    claims.push({ text, cites, heading });
  };
  let heading = "";
  const stack: { level: number; title: string }[] = [];
  // Whole-line italics are the writer's own notes ("_Sources: …_"), not claims.
  const body = draft
    .split("\n")
    .filter((l) => !/^\s*(?:_[^_].*_|\*[^*].*\*)\s*$/.test(l))
    .join("\n");
  for (const section of outlineOf(body).sections) {
    // The heading path ("Kestrel › Decisions"): equal subheadings under different parents differ.
    while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= section.level) stack.pop();
    if (section.level > 0) stack.push({ level: section.level, title: section.title });
    heading = stack.map((h) => h.title).join(" › ");
    for (const block of section.blocks) {
      if (block.kind === "list") for (const item of block.items) add(item.text);
      else if (block.kind === "paragraph") {
        // A citation ends its sentence's claim; split the joined paragraph back into sentences.
        for (const s of block.sentences.flatMap((x) => (FRAME.test(x) ? [] : sentencesOf(x)))) add(s);
      } else if (block.kind === "table") for (const row of block.rows) add(row.join(" "));
    }
  }
  return claims;
}

/** The outcome of a review. */
export interface Review {
  approved: boolean;
  claims: number;
  unsupported: string[];
  unused: string[];
  /** Points that repeat an earlier one. */
  repeated: string[];
  /** Headings that gather points of unrelated sources, with those sources. */
  mixed: { heading: string; files: string[] }[];
  /** The result text in the contract's format. */
  text: string;
}

/**
 * Reviews `draft` (the file `file`) against `sources`. A claim is supported when at least
 * {@link SUPPORT_RATIO} of its content words, and all of its numbers, are in one source;
 * when it cites sources, that source must be one of them. A source is used when it
 * supports a claim that cites it, or supports an uncited claim best; a source in `unread`
 * (an earlier step failed to read it) is always unused. With no claims at all the draft is
 * not approved.
 */
export function reviewDraft(file: string, draft: string, sources: SourceText[], unread: { file: string; why: string }[] = []): Review {
  const indexed = sources.map(indexOf);
  const known = new Set(indexed.map((s) => s.file));
  const claims = claimsOf(draft);
  const unsupported: string[] = [];
  const used = new Set<string>();
  const repeated: string[] = [];
  const byHeading = new Map<string, Set<string>>();
  claims.forEach((claim, i) => {
    const cited = claim.cites.filter((c) => known.has(c));
    const candidates = claim.cites.length > 0 ? indexed.filter((s) => cited.includes(s.file)) : indexed;
    const best = candidates.map((s) => ({ file: s.file, score: support(claim.text, s) })).sort((a, b) => b.score - a.score)[0];
    if (best && best.score >= SUPPORT_RATIO) {
      used.add(best.file);
      const files = byHeading.get(claim.heading ?? "") ?? new Set<string>();
      byHeading.set(claim.heading ?? "", files.add(best.file));
    } else unsupported.push(claim.text);
    if (claims.slice(0, i).some((c) => sameClaim(c.text, claim.text))) repeated.push(claim.text);
  });
  // A heading that gathers points of sources about unrelated subjects (two products) mixes them.
  const byFile = new Map(sources.map((s) => [s.file, s]));
  const mixed: { heading: string; files: string[] }[] = [];
  for (const [heading, files] of byHeading) {
    const list = [...files].flatMap((f) => (byFile.has(f) ? [byFile.get(f) as SourceText] : []));
    const apart = list.some((a, i) => list.slice(i + 1).some((b) => !relatedSources(a, b)));
    if (apart) mixed.push({ heading: heading || "(no heading)", files: list.map((s) => s.file) });
  }
  // A source the earlier steps could not read is unused too: the draft cannot cover it.
  const unused = [...indexed.map((s) => s.file).filter((f) => !used.has(f)), ...unread.map((u) => u.file).filter((f) => !known.has(f))];
  const approved = claims.length > 0 && unsupported.length === 0 && unused.length === 0 && repeated.length === 0 && mixed.length === 0;
  const checked = `${claims.length} points of ${file} checked against ${sources.length > 0 ? sources.map((s) => s.file).join(", ") : "no source"}`;
  const lines = [approved ? "Verdict: approved" : "Verdict: changes needed"];
  const why = new Map(unread.map((u) => [u.file, u.why]));
  lines.push(...unsupported.map((u) => `- Unsupported: ${u}`), ...unused.map((u) => `- Unused source: ${u}${why.has(u) ? ` (could not be read: ${why.get(u)})` : ""}`));
  lines.push(...repeated.map((r) => `- Repeated: ${r}`), ...mixed.map((m) => `- Mixed subjects: ${m.heading} (${m.files.join(", ")})`));
  const found = claims.length - unsupported.length;
  const verdict = approved
    ? "Approved: every point is found in the source it names, and every source is used."
    : claims.length === 0
      ? "It makes no point to check."
      : `${found} of ${claims.length} points are found in the sources${unused.length > 0 ? `; ${unused.join(", ")} ${unused.length === 1 ? "is" : "are"} never used` : ""}${repeated.length > 0 ? `; ${repeated.length} point${repeated.length === 1 ? " repeats" : "s repeat"} another` : ""}${mixed.length > 0 ? `; ${mixed.map((m) => `"${m.heading}"`).join(", ")} mix${mixed.length === 1 ? "es" : ""} unrelated subjects` : ""}.`;
  lines.push("", `Review of ${file}: ${checked}. ${verdict}`);
  return { approved, claims: claims.length, unsupported, unused, repeated, mixed, text: lines.join("\n") };
}

/** A review's verdict read back from its text (see {@link reviewDraft} for the format). */
export interface ParsedVerdict {
  approved: boolean;
  unsupported: string[];
  /** File names only (a "(could not be read: …)" note after the name is dropped). */
  unused: string[];
}

/**
 * Reads a Reviewer's result in the contract's format: the first non-empty line must be
 * exactly "Verdict: approved" or "Verdict: changes needed" (case-insensitive); the
 * "- Unsupported: <point>" and "- Unused source: <file>" lines may follow anywhere.
 * @returns undefined when the text has no verdict line (a reviewer that ignored the format).
 */
export function parseVerdict(text: string): ParsedVerdict | undefined {
  const first = text.trim().split("\n")[0]?.trim().toLowerCase();
  if (first !== "verdict: approved" && first !== "verdict: changes needed") return undefined;
  return {
    approved: first === "verdict: approved",
    unsupported: [...text.matchAll(/^\s*- Unsupported: (.+)$/gm)].map((m) => (m[1] ?? "").trim()),
    unused: [...text.matchAll(/^\s*- Unused source: (\S+)/gm)].map((m) => m[1] ?? ""),
  };
}
