/**
 * Finding approval tokens in typed text, whatever form they were typed in
 * (docs/security.md "Secrets at rest"). An approval token is the HMAC-SHA256 of its
 * challenge in base64url: 43 characters of `[A-Za-z0-9_-]` (lib/approvals/signature.ts).
 * A person may paste one into a chat message in a form the approval command parser
 * refuses (lower-case `approve`, a look-alike letter, the token before the id, the token
 * alone, fullwidth letters, a zero-width space inside it); the text is then an ordinary
 * message, which viewers of the thread read. Everything here compares a *skeleton* of the
 * text: each character folded by NFKC (fullwidth and mathematical letters become ASCII),
 * Cyrillic and Greek look-alikes mapped to the Latin letter they imitate, dashes to `-`,
 * and invisible characters (zero-width, soft hyphen, combining marks) dropped. Matches are
 * replaced in the original text, so the rest of it reads as it was typed.
 */

/** Cyrillic, Greek and other look-alikes of ASCII letters and digits (the common ones of Unicode's confusables list). */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  А: "A",
  В: "B",
  Е: "E",
  З: "3",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  І: "I",
  Ј: "J",
  Ѕ: "S",
  Ү: "Y",
  Ԛ: "Q",
  Ԝ: "W",
  Ь: "b",
  Ꮃ: "W",
  а: "a",
  в: "B",
  е: "e",
  к: "k",
  м: "M",
  н: "H",
  о: "o",
  р: "p",
  с: "c",
  т: "T",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  һ: "h",
  ү: "y",
  ӏ: "l",
  ɡ: "g",
  // Greek
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  α: "a",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ϲ: "c",
  ϳ: "j",
  // Armenian, Latin extensions
  օ: "o",
  ս: "u",
  ց: "g",
  ı: "i",
  ȷ: "j",
  ℓ: "l",
};

/** Dashes and minus signs that read as `-`. */
const DASHES = /[\u2010-\u2015\u2212\u2043\uFE58\uFE63\uFF0D]/;

/** Characters that show nothing: format characters (zero-width spaces and joiners, soft hyphen, BOM, direction marks), combining marks and variation selectors, Hangul fillers. */
const INVISIBLE = /[\u115F\u1160\u3164\uFFA0]|\p{Cf}|\p{M}/u;

/** A character of a token (base64url). */
const TOKEN_CHAR = /^[A-Za-z0-9_-]$/;

/** The length of an approval token: base64url of a 32-byte HMAC, without padding. */
export const TOKEN_LENGTH = 43;

/** A text's skeleton: its characters as compared, each with the span of the original it came from. */
interface Skeleton {
  chars: string[];
  /** Start offset (UTF-16) in the original of each skeleton character. */
  from: number[];
  /** End offset (exclusive) in the original of each skeleton character. */
  to: number[];
}

/** The skeleton of `text` (see the module comment). */
function skeletonOf(text: string): Skeleton {
  const out: Skeleton = { chars: [], from: [], to: [] };
  let offset = 0;
  for (const ch of text) {
    const start = offset;
    offset += ch.length;
    if (INVISIBLE.test(ch)) continue;
    const mapped = LOOK_ALIKES[ch] ?? ch.normalize("NFKC");
    for (const c of mapped) {
      if (INVISIBLE.test(c)) continue;
      out.chars.push(DASHES.test(c) ? "-" : (LOOK_ALIKES[c] ?? c));
      out.from.push(start);
      out.to.push(offset);
    }
  }
  return out;
}

const asciiLower = (c: string): string => (c >= "A" && c <= "Z" ? String.fromCharCode(c.charCodeAt(0) + 32) : c);

/** Replaces the spans (original offsets, end exclusive) of `text` with `marker`; overlapping spans merge. */
function replaceSpans(text: string, spans: [number, number][], marker: string): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  let cur: [number, number] | null = null;
  for (const s of sorted) {
    if (cur && s[0] <= cur[1]) cur[1] = Math.max(cur[1], s[1]);
    else {
      if (cur) {
        out += text.slice(at, cur[0]) + marker;
        at = cur[1];
      }
      cur = [s[0], s[1]];
    }
  }
  if (cur) out += text.slice(at, cur[0]) + marker;
  return out + text.slice(cur ? cur[1] : at);
}

/**
 * Replaces every occurrence of the given tokens in `text` with `marker`, in any form: case
 * ignored, look-alike and fullwidth letters folded, and anything that is not a token
 * character (spaces, punctuation, invisible characters) between its characters skipped, so
 * a token typed as `ＡbC…`, `abc…`, `a b c…` or inside another word is found too.
 * @param tokens the live tokens to look for (43-char base64url; shorter strings are ignored).
 * @returns the text with each occurrence's span replaced; the same string when none is found.
 */
export function redactTokensIn(text: string, tokens: readonly string[], marker: string): string {
  const wanted = [...new Set(tokens.filter((t) => t.length >= TOKEN_LENGTH).map((t) => t.toLowerCase()))];
  if (wanted.length === 0 || text.length < TOKEN_LENGTH) return text;
  const sk = skeletonOf(text);
  // Only token characters, lower-cased: a token split by spaces or punctuation is found whole.
  const keep: number[] = [];
  let compact = "";
  sk.chars.forEach((c, i) => {
    if (TOKEN_CHAR.test(c)) {
      compact += asciiLower(c);
      keep.push(i);
    }
  });
  const spans: [number, number][] = [];
  for (const t of wanted) {
    for (let at = compact.indexOf(t); at !== -1; at = compact.indexOf(t, at + 1)) {
      const first = keep[at] as number;
      const last = keep[at + t.length - 1] as number;
      spans.push([sk.from[first] as number, sk.to[last] as number]);
    }
  }
  return replaceSpans(text, spans, marker);
}

/** The command verbs whose following `<id> <token>` is redacted (the Router's APPROVE_RE, unanchored). */
const APPROVE_IN_SKELETON = /(?<![A-Za-z0-9_])(?:APROBAR|APPROVE)\s+[A-Za-z0-9_-]{6,}\s+([A-Za-z0-9_-]{6,})/g;

/**
 * The spans of `text` that look like an approval token by their form alone, without knowing
 * the live tokens: in the skeleton, a run of exactly {@link TOKEN_LENGTH} base64url
 * characters (not part of a longer run) holding a letter and a digit, as 43 random base64url
 * characters almost always do; and the word after `APPROVE|APROBAR <id>`, as the Router reads
 * it (look-alike letters folded).
 */
function tokenShapedSpans(text: string, withShapes: boolean): [number, number][] {
  const { s, span } = comparable(text);
  const spans: [number, number][] = [];
  for (const m of s.matchAll(APPROVE_IN_SKELETON)) {
    const token = m[1] as string;
    const end = (m.index ?? 0) + m[0].length;
    spans.push(span(end - token.length, end));
  }
  if (withShapes && s.length >= TOKEN_LENGTH) {
    for (const m of s.matchAll(/[A-Za-z0-9_-]+/g)) {
      const run = m[0];
      if (run.length === TOKEN_LENGTH && /[A-Za-z]/.test(run) && /[0-9]/.test(run)) spans.push(span(m.index ?? 0, (m.index ?? 0) + run.length));
    }
  }
  return spans;
}

/**
 * The skeleton of `text` as one string, and the original span of a range of it. ASCII text
 * is its own skeleton (the fast path: most state strings).
 */
function comparable(text: string): { s: string; span: (start: number, end: number) => [number, number] } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, control characters included
  if (/^[\x00-\x7F]*$/.test(text)) return { s: text, span: (start, end) => [start, end] };
  const sk = skeletonOf(text);
  // A skeleton character is one code point; an astral one takes two UTF-16 units of the string.
  const index: number[] = [];
  sk.chars.forEach((c, i) => {
    for (let k = 0; k < c.length; k++) index.push(i);
  });
  return { s: sk.chars.join(""), span: (start, end) => [sk.from[index[start] as number] as number, sk.to[index[end - 1] as number] as number] };
}

/**
 * Redacts what reads as an approval token in `text` by its form (for text stored before
 * live tokens were redacted on the way in, and for tokens of other threads): every
 * token-shaped word (see tokenShapedSpans) and the token of every `APPROVE|APROBAR <id>
 * <token>`, in any of the forms the module comment lists. A base64url value of exactly 43
 * characters that is not a token (a SHA-256 in base64url) reads as redacted too.
 */
export function redactTokenShapes(text: string, marker: string): string {
  if (text.length < 6) return text;
  return replaceSpans(text, tokenShapedSpans(text, true), marker);
}

/**
 * Redacts only the token of every `APPROVE|APROBAR <id> <token>` in `text` (look-alike
 * letters folded): for stored run events, where other 43-character values must stay.
 */
export function redactCommandTokens(text: string, marker: string): string {
  if (text.length < 6) return text;
  return replaceSpans(text, tokenShapedSpans(text, false), marker);
}
