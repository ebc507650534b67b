/**
 * Reads a Markdown (or plain text) document into an outline the offline model can summarise
 * without losing its shape: a title, sections under their headings (ATX `#` and setext
 * `===`/`---`), and in each section its paragraphs (split into sentences), lists (items with
 * their depth, number and checkbox), tables (one item per row) and code blocks. Pure and
 * deterministic; it never throws on odd input (unknown lines are read as paragraph text).
 */

/** One item of a list. */
export interface ListItem {
  /** The item's text with inline Markdown (links, emphasis) simplified; code spans kept. */
  text: string;
  /** 0 for a top-level item, 1 for an item nested once, and so on. */
  depth: number;
  /** The number of an ordered item ("3." -> 3); undefined for a bullet. */
  number?: number;
  /** true/false for a task-list item ("- [x]" / "- [ ]"); undefined otherwise. */
  checked?: boolean;
}

/** A block of a section, in document order. */
export type Block = { kind: "paragraph"; sentences: string[] } | { kind: "list"; items: ListItem[] } | { kind: "code"; lines: string[] } | { kind: "table"; header: string[]; rows: string[][] };

/** A heading and the blocks up to the next heading. */
export interface Section {
  /** Heading level as written (1-6); 0 for the text before the first heading. */
  level: number;
  /** Heading text, simplified; "" for the text before the first heading. */
  title: string;
  blocks: Block[];
}

/** A document read by {@link outlineOf}. */
export interface Outline {
  /** The first heading when it is a level-1 heading that opens the document. */
  title?: string;
  /** Sections in order; the title's own section (its intro text) has level 0 and title "". */
  sections: Section[];
}

/**
 * Simplifies inline Markdown: images dropped, links reduced to their text, bold/italic
 * markers and HTML tags removed, whitespace collapsed. Code spans keep their backticks.
 */
export function cleanInline(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .replace(/\*\*|__/g, "")
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** Splits a paragraph into sentences (at . ! ? followed by a capital, digit or quote). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["'([`]?[A-Z0-9])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const FENCE = /^(```|~~~)/;
const ATX = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^(\s*)(?:([-*+])|(\d+)[.)])\s+(?:\[([ xX])\]\s+)?(.*)$/;
const RULE = /^\s*([-*_])(?:\s*\1){2,}\s*$/;
/** A line that is only images, badges or HTML wrappers: nothing to summarise. */
const DECORATION = /^(?:\s*(?:\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)|<\/?[a-z][^>]*>))+\s*$/i;
/** A link reference definition: `[id]: https://…`. */
const LINK_DEF = /^\s*\[[^\]]+\]:\s+\S+/;
/** A line that starts a labelled statement (`**Present:** …`, `Date: …`): its own sentence. */
const LABEL = /^(?:\*\*[^*]{1,40}:\*\*|\*\*[^*]{1,40}\*\*:|[A-Z][A-Za-z ]{0,24}:\s)/;

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => cleanInline(c));
}

/**
 * Reads `text` into an {@link Outline}. Rules: a fenced code block is one block; a line
 * followed by `===` or `---` is a setext heading (levels 1 and 2); a line starting with `|`
 * belongs to a table (its `|---|` separator is dropped); list items keep their depth (two
 * spaces or a tab of indentation per level) and indented lines after an item continue it;
 * paragraphs end at a blank line or a block of another kind. Horizontal rules, badges and
 * link definitions are dropped.
 */
export function outlineOf(text: string): Outline {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const sections: Section[] = [{ level: 0, title: "", blocks: [] }];
  let current = sections[0] as Section;
  let paragraph: string[] = [];
  let list: ListItem[] | null = null;
  let table: string[][] | null = null;

  const flushParagraph = () => {
    if (paragraph.length === 0) return;
    const sentences: string[] = [];
    let chunk: string[] = [];
    const push = () => {
      if (chunk.length > 0) sentences.push(...sentencesOf(cleanInline(chunk.join(" "))));
      chunk = [];
    };
    for (const line of paragraph) {
      if (LABEL.test(line)) push();
      chunk.push(line);
    }
    push();
    if (sentences.length > 0) current.blocks.push({ kind: "paragraph", sentences });
    paragraph = [];
  };
  const flushList = () => {
    if (list && list.length > 0) current.blocks.push({ kind: "list", items: list });
    list = null;
  };
  const flushTable = () => {
    if (table && table.length > 0) {
      const [header = [], ...rows] = table;
      current.blocks.push({ kind: "table", header, rows });
    }
    table = null;
  };
  const flushAll = () => {
    flushParagraph();
    flushList();
    flushTable();
  };
  const heading = (level: number, title: string) => {
    flushAll();
    current = { level, title: cleanInline(title), blocks: [] };
    sections.push(current);
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    const line = raw.trimEnd();
    if (FENCE.test(line.trim())) {
      flushAll();
      const fence = line.trim().slice(0, 3);
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").trim().startsWith(fence); i++) code.push(lines[i] ?? "");
      current.blocks.push({ kind: "code", lines: code });
      continue;
    }
    if (!line.trim()) {
      flushParagraph();
      flushTable();
      // A blank line inside a list does not end it; the next non-item line will.
      continue;
    }
    const atx = ATX.exec(line);
    if (atx?.[1] && atx[2] !== undefined && !raw.startsWith(" ")) {
      heading(atx[1].length, atx[2]);
      continue;
    }
    const next = (lines[i + 1] ?? "").trim();
    if (paragraph.length === 0 && !list && !table && /^(=+|-+)$/.test(next) && !ITEM.test(line) && !line.trim().startsWith("|")) {
      heading(next.startsWith("=") ? 1 : 2, line.trim());
      i++;
      continue;
    }
    if (RULE.test(line) || DECORATION.test(line) || LINK_DEF.test(line)) {
      flushAll();
      continue;
    }
    if (line.trim().startsWith("|")) {
      flushParagraph();
      flushList();
      if (/^\|?\s*:?-{2,}/.test(line.trim().replace(/^\|/, ""))) continue;
      table = table ?? [];
      table.push(cells(line));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      flushParagraph();
      flushTable();
      const indent = (item[1] ?? "").replace(/\t/g, "  ").length;
      list = list ?? [];
      list.push({
        text: cleanInline(item[5] ?? ""),
        depth: Math.min(3, Math.floor(indent / 2)),
        ...(item[3] ? { number: Number(item[3]) } : {}),
        ...(item[4] !== undefined ? { checked: item[4] !== " " } : {}),
      });
      continue;
    }
    const last: ListItem | undefined = list ? (list as ListItem[]).at(-1) : undefined;
    if (last && /^\s+\S/.test(raw) && paragraph.length === 0) {
      // An indented line right after an item continues it.
      last.text = cleanInline(`${last.text} ${line}`);
      continue;
    }
    flushList();
    flushTable();
    paragraph.push(line.trim().replace(/^>\s?/, ""));
  }
  flushAll();

  const first = sections[1];
  const intro = sections[0] as Section;
  if (intro.blocks.length === 0 && first && first.level === 1) {
    // The document opens with its title: the title's text becomes the intro.
    sections.splice(0, 2, { level: 0, title: "", blocks: first.blocks });
    return { title: first.title, sections: sections.filter((s) => s.level === 0 || s.title || s.blocks.length > 0) };
  }
  return { sections };
}
