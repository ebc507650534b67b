import MiniSearch from "minisearch";
import { z } from "zod";
import { isAppError } from "../errors";
import { listFiles, readFile } from "./files";
import type { ToolContext, ToolDefinition } from "./types";

/**
 * search_files (docs/library.md "search_files"): full-text search over the thread's files and
 * the mounted library, answered as passages with citations (file and 1-based inclusive line
 * range of the text read_file returns), so an answer can say where each fact came from. The
 * text of each file comes from read_file itself, so whatever read_file returns for a file
 * (a PDF's or DOCX's extracted text included) is what is searched.
 */

/** Most files indexed per search. */
export const SEARCH_MAX_FILES = 200;
/** Most chars of text indexed per search (2M chars). */
export const SEARCH_MAX_TEXT_CHARS = 2_000_000;
/** Most folders walked per search. */
const SEARCH_MAX_DIRS = 100;
/** Most lines in one passage: longer blocks are cut into windows of this many lines. */
export const PASSAGE_MAX_LINES = 8;
/** Most chars of a passage's text in an answer. */
export const PASSAGE_MAX_CHARS = 600;
/** Default and largest number of passages answered. */
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

const STOP_WORDS = new Set(
  "a an and are as at be by do does for from has have how i in is it its of on or our say says that the their there this to was we were what when where which who why will with you your".split(" "),
);

/** One passage of a file: 1-based inclusive line range and its text. */
export interface Passage {
  file: string;
  lines: [number, number];
  text: string;
}

/**
 * Cuts a file's text into passages: blocks of non-blank lines (paragraphs, lists), each cut
 * into windows of at most {@link PASSAGE_MAX_LINES} lines. Line numbers are 1-based and
 * inclusive, counted on `\n` of the text exactly as given.
 */
export function passagesOf(file: string, text: string): Passage[] {
  const lines = text.split("\n");
  const out: Passage[] = [];
  let start = -1;
  const flush = (end: number) => {
    for (let from = start; from <= end; from += PASSAGE_MAX_LINES) {
      const to = Math.min(end, from + PASSAGE_MAX_LINES - 1);
      out.push({ file, lines: [from + 1, to + 1], text: lines.slice(from, to + 1).join("\n") });
    }
    start = -1;
  };
  lines.forEach((line, i) => {
    if (line.trim() === "") {
      if (start >= 0) flush(i - 1);
    } else if (start < 0) start = i;
  });
  if (start >= 0) flush(lines.length - 1);
  return out;
}

/** Workspace paths of every file the file tools see (thread and library), breadth first, within the caps. */
async function filesToSearch(ctx: ToolContext, under: string): Promise<{ files: string[]; capped: boolean }> {
  const files: string[] = [];
  const dirs = [under];
  let walked = 0;
  while (dirs.length > 0 && walked < SEARCH_MAX_DIRS) {
    const dir = dirs.shift() ?? ".";
    walked += 1;
    const entries = await listFiles.run({ path: dir }, ctx);
    for (const e of entries) {
      const rel = dir === "." ? e.name : `${dir}/${e.name}`;
      if (e.type === "dir") dirs.push(rel);
      else if (files.length < SEARCH_MAX_FILES) files.push(rel);
      else return { files, capped: true };
    }
  }
  return { files, capped: dirs.length > 0 };
}

const SearchResult = z.object({
  file: z.string(),
  /** 1-based inclusive line range in the text read_file returns for the file. */
  lines: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  text: z.string(),
  score: z.number(),
});

const SearchOutput = z.object({
  query: z.string(),
  /** Best first, at most `limit`. */
  results: z.array(SearchResult),
  /** Files whose text was searched. */
  filesSearched: z.number().int().nonnegative(),
  /** Files left out: binary, too large, unreadable, or past the text cap. */
  filesSkipped: z.number().int().nonnegative(),
  /** True when the workspace held more files or folders than one search indexes. */
  capped: z.boolean(),
});

/** search_files: the passages of the workspace's files that best match a query, with citations. */
export const searchFiles: ToolDefinition<{ query: string; path?: string | undefined; limit: number }, z.infer<typeof SearchOutput>> = {
  name: "search_files",
  version: "1.0.0",
  description:
    'Full-text search over the workspace\'s files (and the mounted library). Returns the best matching passages, each with its file and line range. Cite each fact you use as "file:start-end", e.g. "notes.md:3-5".',
  timeoutMs: 30_000,
  permission: "user",
  sideEffect: false,
  idempotent: () => true,
  input: z.object({
    query: z.string().trim().min(1).max(500).describe('Words to look for, e.g. "launch date".'),
    path: z.string().min(1).max(1024).optional().describe('Only search this file or folder, e.g. "notes.md"; absent: every file.'),
    limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).describe(`Most passages to return (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}).`),
  }),
  output: SearchOutput,
  async run({ query, path, limit }, ctx) {
    const { files, capped, single } = await scope(ctx, path);
    const passages: Passage[] = [];
    let chars = 0;
    let skipped = 0;
    for (const file of files) {
      if (ctx.signal.aborted) break;
      let content: string;
      try {
        content = (await readFile.run({ path: file }, ctx)).content;
      } catch (err) {
        // Binary, too large, unreadable: not searchable, and said so by the count.
        if (!isAppError(err) || single) throw err;
        skipped += 1;
        continue;
      }
      if (chars + content.length > SEARCH_MAX_TEXT_CHARS) {
        skipped += 1;
        continue;
      }
      chars += content.length;
      passages.push(...passagesOf(file, content));
    }
    const index = new MiniSearch<Passage & { id: number }>({
      fields: ["text", "file"],
      storeFields: [],
      processTerm: (term) => {
        const t = term.toLowerCase();
        return STOP_WORDS.has(t) ? null : t;
      },
    });
    index.addAll(passages.map((p, id) => ({ ...p, id })));
    const hits = index.search(query, { prefix: true, fuzzy: 0.2, boost: { text: 2 }, combineWith: "OR" }).slice(0, limit);
    return {
      query,
      results: hits.map((h) => {
        const p = passages[h.id as number] as Passage;
        const text = p.text.length > PASSAGE_MAX_CHARS ? `${p.text.slice(0, PASSAGE_MAX_CHARS)}…` : p.text;
        return { file: p.file, lines: p.lines, text, score: Math.round(h.score * 1000) / 1000 };
      }),
      filesSearched: files.length - skipped,
      filesSkipped: skipped,
      capped,
    };
  },
};

/** The files a search covers: one file, one folder's tree, or the whole workspace. */
async function scope(ctx: ToolContext, path: string | undefined): Promise<{ files: string[]; capped: boolean; single: boolean }> {
  if (!path || path === ".") return { ...(await filesToSearch(ctx, ".")), single: false };
  const clean = path.replace(/[/\\]+$/, "");
  try {
    return { ...(await filesToSearch(ctx, clean)), single: false };
  } catch (err) {
    // Not a folder (a file, of the thread or the library): search it alone; read_file says
    // why when it cannot be read.
    if (isAppError(err) && (err.reason === "not_a_directory" || err.reason === "not_found")) return { files: [clean], capped: false, single: true };
    throw err;
  }
}
