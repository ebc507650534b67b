/**
 * Extractive summaries for the offline model: the most informative sentences or bullets of a
 * text, chosen by deterministic scoring (no model, no randomness).
 */

/** Points in an extractive summary by default. */
export const SUMMARY_POINTS = 5;

const DATE_RE =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{4}-\d{2}(?:-\d{2})?\b|\bQ[1-4]\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;

function cleanInline(text: string): string {
  return text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Picks the `max` most informative sentences or bullets of a text, in their original order.
 * Scoring (deterministic): first sentence of a paragraph +3, bullet line +2, contains a number
 * +2, a date +1, a capitalised word after the first +1, very short -3, very long -1; ties go
 * to the earlier candidate. Markdown headings, rules and code fences are dropped.
 */
export function extractivePoints(text: string, max = SUMMARY_POINTS): string[] {
  const candidates: { text: string; first: boolean; bullet: boolean }[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const sentences = paragraph.join(" ").split(/(?<=[.!?])\s+(?=["'([]?[A-Z0-9])/);
    sentences.forEach((s, i) => {
      candidates.push({ text: s, first: i === 0, bullet: false });
    });
    paragraph = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("```") || /^#{1,6}\s/.test(line) || /^([-*_])\1{2,}$/.test(line)) {
      flush();
      continue;
    }
    const bullet = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet?.[1]) {
      flush();
      candidates.push({ text: bullet[1], first: false, bullet: true });
      continue;
    }
    paragraph.push(line.replace(/^>\s?/, ""));
  }
  flush();

  const seen = new Set<string>();
  const scored = candidates
    .map((c, index) => {
      const t = cleanInline(c.text);
      let score = (c.first ? 3 : 0) + (c.bullet ? 2 : 0);
      if (/\d/.test(t)) score += 2;
      if (DATE_RE.test(t)) score += 1;
      if (/\s[A-Z][a-z]+/.test(t)) score += 1;
      if (t.length < 15) score -= 3;
      else if (t.length > 240) score -= 1;
      return { text: t, index, score };
    })
    .filter((c) => {
      const key = c.text.toLowerCase();
      if (!c.text || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((c) => c.text);
}
