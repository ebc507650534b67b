import { type Block, type ListItem, type Outline, outlineOf, type Section } from "./document-outline";
import { hasDate, kindsOf, type StatementKind } from "./statement-kinds";

/**
 * Which statements of a document a summary keeps, section by section (the offline model's
 * rules; deterministic). Everything in a Decisions / Risks / Action items section that says
 * something is kept, and anywhere a decision, a risk, an action item or a dated statement is
 * kept; other paragraphs keep their opening sentences and sentences with figures; lists stay
 * lists (a list of more than {@link LONG_LIST} items keeps its first {@link LONG_LIST_KEEP}).
 */

/** Lists longer than this are cut when their section is not a decisions/risks/actions one. */
export const LONG_LIST = 8;
/** Items a cut list keeps. */
export const LONG_LIST_KEEP = 6;
/** Rows of a table a summary keeps. */
const TABLE_ROWS = 6;

/** A statement a summary keeps. */
export interface KeptPoint {
  /** The statement's text (inline Markdown simplified, code spans kept). */
  text: string;
  /** The Markdown line that renders it: indentation, "-" or "3.", a checkbox, the text. */
  line: string;
  /** Kinds from its own words and its section's heading. */
  kinds: Set<StatementKind>;
  dated: boolean;
  /** Extractive score: higher is more informative (see {@link scorePoint}). */
  score: number;
  /** Position in the document, for stable ordering. */
  order: number;
  /** Headings of the sections it sits in, outermost first. */
  path: string[];
}

/** One section with the points it keeps and what the summary says about what was left out. */
export interface KeptSection {
  section: Section;
  /** Headings from the outermost section down to this one. */
  path: string[];
  points: KeptPoint[];
  /** Italic notes such as "…and 4 more items in the source." */
  notes: string[];
}

/**
 * Extractive score of a candidate: opening sentence of a paragraph +3, list item +2, has a
 * number +2, a date +1, a capitalised word after the first +1, under 15 chars -3, over 240
 * chars -1.
 */
export function scorePoint(text: string, opts: { first?: boolean; item?: boolean }): number {
  let score = (opts.first ? 3 : 0) + (opts.item ? 2 : 0);
  if (/\d/.test(text)) score += 2;
  if (hasDate(text)) score += 1;
  if (/\s[A-Z][a-z]+/.test(text)) score += 1;
  if (text.length < 15) score -= 3;
  else if (text.length > 240) score -= 1;
  return score;
}

/** A sentence reporting who argued what: the reasoning, not the decision. */
const RATIONALE = /^(?:[A-Z][\w-]+ )+(?:argued|said|noted|explained|thinks|believes|mentioned|pointed out|asked|wondered)\b/;
/** A labelled line of a document's opening ("Present: …", "Absent: …"). */
const LABELLED = /^[A-Z][\w ]{0,24}:\s/;

function itemLine(item: ListItem): string {
  const marker = item.number !== undefined ? `${item.number}.` : "-";
  const box = item.checked === undefined ? "" : item.checked ? "[x] " : "[ ] ";
  return `${"  ".repeat(item.depth)}${marker} ${box}${item.text}`;
}

function rowText(header: string[], row: string[]): string {
  const [first = "", ...rest] = row;
  const named = rest.map((c, i) => (header[i + 1] ? `${header[i + 1]}: ${c}` : c)).filter((c) => c.trim());
  return named.length > 0 ? `${first} (${named.join("; ")})` : first;
}

/** The first line of a code block worth quoting (a command), or undefined. */
function commandOf(lines: string[]): string | undefined {
  const line = lines.map((l) => l.trim().replace(/^\$\s+/, "")).find((l) => l && !/^(?:#|\/\/)/.test(l));
  return line && line.length <= 100 ? line : undefined;
}

function pointsOf(blocks: Block[], path: string[], counter: { n: number }): { points: KeptPoint[]; notes: string[] } {
  const special = kindsOf("", path).size > 0;
  const points: KeptPoint[] = [];
  const notes: string[] = [];
  const add = (text: string, line: string, opts: { first?: boolean; item?: boolean }) => {
    points.push({ text, line, kinds: kindsOf(text, path), dated: hasDate(text), score: scorePoint(text, opts), order: counter.n++, path });
  };
  let paragraphs = 0;
  let quoted = false;
  for (const block of blocks) {
    if (block.kind === "paragraph") {
      block.sentences.forEach((s, j) => {
        const own = kindsOf(s).size > 0 || hasDate(s) || (path.length === 0 && LABELLED.test(s));
        // In a decisions/risks/actions section every sentence counts, except who argued what.
        const opening = (j === 0 && (special || paragraphs < 2)) || (special && !RATIONALE.test(s));
        const figure = /\d/.test(s) && j < 3 && !special;
        if (s.length >= 4 && (opening || own || figure)) add(s, `- ${s}`, { first: j === 0 });
      });
      paragraphs++;
    } else if (block.kind === "list") {
      const items = block.items.filter((i) => i.text);
      const keepAll = special || items.length <= LONG_LIST || items.some((i) => i.checked === false);
      const kept = keepAll ? items : items.slice(0, LONG_LIST_KEEP);
      for (const item of kept) add(item.text, itemLine(item), { item: true });
      if (kept.length < items.length) notes.push(`…and ${items.length - kept.length} more items in the source.`);
    } else if (block.kind === "table") {
      const rows = block.rows.slice(0, TABLE_ROWS);
      for (const row of rows) {
        const text = rowText(block.header, row);
        if (text) add(text, `- ${text}`, { item: true });
      }
      if (rows.length < block.rows.length) notes.push(`…and ${block.rows.length - rows.length} more rows in the source.`);
    } else if (!quoted) {
      const command = commandOf(block.lines);
      if (command) {
        add(`\`${command}\``, `- \`${command}\``, { item: true });
        quoted = true;
      }
    }
  }
  return { points, notes };
}

/**
 * The points a summary of `outline` keeps, per section in document order (sections that
 * keep nothing are included with no points, so headings can still frame their subsections).
 */
export function keptSections(outline: Outline): KeptSection[] {
  const counter = { n: 0 };
  const stack: { level: number; title: string }[] = [];
  return outline.sections.map((section) => {
    while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= section.level) stack.pop();
    if (section.level > 0) stack.push({ level: section.level, title: section.title });
    const path = stack.map((s) => s.title);
    const { points, notes } = pointsOf(section.blocks, path, counter);
    return { section, path, points, notes };
  });
}

/** {@link keptSections} of a text. */
export function keptSectionsOf(text: string): { outline: Outline; sections: KeptSection[] } {
  const outline = outlineOf(text);
  return { outline, sections: keptSections(outline) };
}
