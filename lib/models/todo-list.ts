import { isTodo } from "./statement-kinds";
import { joinNames } from "./structured-summary";

/**
 * Collecting the to-dos of files for the offline model: lines with a TODO or FIXME marker
 * and unchecked task-list items ("- [ ] …"), reported as "- <file>:<line>: <text>", and the
 * checklist written from such a report. Deterministic.
 */

/** A to-do found in a file. */
export interface TodoLine {
  file: string;
  /** 1-based line number. */
  line: number;
  text: string;
}

/** Extensions of files the collector reads (text it can search); others are skipped. */
export const TEXT_FILE =
  /\.(?:md|markdown|txt|text|rst|adoc|org|json|ya?ml|toml|ini|cfg|csv|tsv|log|html?|css|s[ac]ss|[cm]?[jt]sx?|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|sql|env|gitignore)$|(?:^|\/)(?:README|TODO|CHANGELOG|Makefile|Dockerfile)$/i;

/** The to-dos of one file's text, in line order. */
export function todosOf(file: string, text: string): TodoLine[] {
  return text.split(/\r?\n/).flatMap((raw, i) => {
    const box = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.*)$/.exec(raw);
    if (!isTodo(raw, box ? box[1] !== " " : undefined)) return [];
    // A marker in a trailing comment: the comment is the to-do, not the code before it.
    const comment = /(?:^|\s)(?:\/\/+|#+|<!--|--|;+)\s*((?:TODO|FIXME)\b.*)$/.exec(raw)?.[1];
    const text = (box?.[2] ?? comment ?? raw)
      .replace(/^\s*(?:\/\/+|#+|\/?\*+|<!--|--|;+)\s*/, "")
      .replace(/\s*(?:\*\/|-->)\s*$/, "")
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")
      .replace(/^TODO\b:?\s*/, "")
      .trim();
    return text ? [{ file, line: i + 1, text }] : [];
  });
}

/** The collect step's result: a count line, then "- <file>:<line>: <text>" per to-do. */
export function todoReport(files: string[], todos: TodoLine[]): string {
  if (todos.length === 0) return `Found no TODO lines in the ${files.length} files read (${joinNames(files) || "none"}).`;
  const head = `Found ${todos.length} TODO line${todos.length === 1 ? "" : "s"} in ${files.length} files read (${joinNames(files)}):`;
  return [head, ...todos.map((t) => `- ${t.file}:${t.line}: ${t.text}`)].join("\n");
}

/** Reads a {@link todoReport} back: the files read and the to-dos. */
export function parseTodoReport(text: string): { files: string[]; todos: TodoLine[] } | undefined {
  const head = /^Found (?:no|\d+) TODO lines? in (?:the )?\d+ files read \(([^)]*)\)/m.exec(text);
  if (!head) return undefined;
  const files = (head[1] ?? "")
    .split(/,\s*|\s+and\s+/)
    .map((f) => f.trim())
    .filter((f) => f && f !== "none");
  const todos = [...text.matchAll(/^- (.+?):(\d+): (.+)$/gm)].map((m) => ({ file: m[1] ?? "", line: Number(m[2]), text: m[3] ?? "" }));
  return { files, todos };
}

/**
 * The checklist document: "# TODO checklist", the files searched, then one unchecked item
 * per to-do with where it was found ("(notes.md, line 12)"); says so when there are none.
 */
export function checklistOf(files: string[], todos: TodoLine[]): string {
  const lines = ["# TODO checklist", "", `_Collected from ${files.length} files: ${joinNames(files) || "none"}._`, ""];
  if (todos.length === 0) lines.push("No TODO lines were found.");
  else lines.push(...todos.map((t) => `- [ ] ${t.text} (${t.file}, line ${t.line})`));
  return `${lines.join("\n")}\n`;
}
