import { cleanInline, outlineOf } from "../models/document-outline";
import { hasDate, kindsOf } from "../models/statement-kinds";

/**
 * Which statements of a finished step are worth proposing to long-term memory (docs/architecture.md#memory):
 * facts a later run can use (decisions, dates, figures, owners of work), never the step's
 * bookkeeping ("Wrote 392 bytes to brief.md", "Read notes.md", a listing, a deletion), nor a
 * failure, a refusal, a review verdict, an answer already taken from memory, or a person's
 * answer to a question. Pure and deterministic.
 */

/** Most facts proposed from one step. */
export const FACTS_PER_STEP = 3;
/** Shortest statement worth a fact, chars. */
const MIN_FACT_CHARS = 20;
/** Longest statement kept whole, chars; longer ones are not facts but passages. */
const MAX_FACT_CHARS = 300;

/** Whole step results that are bookkeeping or failures: nothing in them is a fact. */
const NOTHING = [
  /^Wrote \d+ bytes to /,
  /^Deleted /,
  /^\S+ has \d+ entries:/,
  /^\S+ is empty\./,
  /^Files in /,
  /^[\w.-]+(?: on \S+)? (?:failed|was not run):/,
  /^ERROR\b/,
  /^BLOCKED\b/,
  /; the call was refused\.$/,
  /^model error:/i,
  /^Verdict: /,
  /^Review of /,
  /^(?:Remembered|Already remembered|Nothing is remembered|From memory:)/,
  /^I can't\b/,
  /^I am the offline model\b/,
  /^\(the agent finished the step without a reply\)$/,
  /^(?:GET|HEAD|POST|PUT|PATCH|DELETE) \S+ returned /,
  /^Found (?:no|\d+) TODO lines?/,
];

/** Lines inside a result that describe a tool call rather than state something. */
const BOOKKEEPING_LINE = /^(?:Read \d+ characters from .*:|Wrote \d+ bytes to .*|\[\u2026 cut at \d+ characters\]|\[EVICTED size=\d+\].*|Revised after the review:.*)$/;

/** A step's outcome as promote sees it. */
export interface StepResult {
  task: string;
  result: string;
}

/**
 * How much a statement is a fact a later run can use: a decision +3 (it holds until changed),
 * a recommendation +2, an action item, a risk, a date and a figure +1 each. Statements
 * scoring under 2 are not proposed.
 */
export function factScore(text: string, path: string[] = []): number {
  const kinds = kindsOf(text, path);
  let score = 0;
  if (kinds.has("decision")) score += 3;
  if (kinds.has("recommendation")) score += 2;
  if (kinds.has("action")) score += 1;
  if (kinds.has("risk")) score += 1;
  if (hasDate(text)) score += 1;
  if (/\d/.test(text)) score += 1;
  return score;
}

/** The statements of a text (its list items and sentences) with their section headings. */
function statementsOf(text: string): { text: string; path: string[] }[] {
  const out: { text: string; path: string[] }[] = [];
  for (const section of outlineOf(text).sections) {
    const path = section.title ? [section.title] : [];
    for (const block of section.blocks) {
      if (block.kind === "paragraph") out.push(...block.sentences.map((s) => ({ text: s, path })));
      else if (block.kind === "list") out.push(...block.items.map((i) => ({ text: i.text, path })));
    }
  }
  return out;
}

/**
 * The facts worth proposing from one step: at most {@link FACTS_PER_STEP} statements of
 * its result with a {@link factScore} of 2 or more (the best ones, in their order), each
 * prefixed with the file they come from ("notes.md: …") when the result quotes a file or
 * the task names one. A script's result is kept as "<task>: <value>". Citations such as
 * "(source: a.md)" become the prefix.
 */
export function factCandidates(step: StepResult): string[] {
  const result = step.result.trim();
  if (!result || NOTHING.some((re) => re.test(result))) return [];
  const script = /^The script returned: ([\s\S]+?)(?:\nConsole:[\s\S]*)?$/.exec(result)?.[1];
  if (script) return [`${cleanInline(step.task)}: ${script.trim()}`.slice(0, MAX_FACT_CHARS)];
  const file = /^Read \d+ characters from (.+?):\n/.exec(result)?.[1] ?? /\b([\w./-]+\.(?:md|txt|csv|json|log))\b/.exec(step.task)?.[1];
  const body = result
    .split("\n")
    .filter((l) => !BOOKKEEPING_LINE.test(l.trim()))
    .join("\n");
  const scored = statementsOf(body)
    .map((s, order) => {
      const cited = /\s*\(source: ([^)]+)\)\.?$/.exec(s.text);
      const text = (cited ? s.text.slice(0, cited.index) : s.text).trim();
      return { text, from: cited?.[1] ?? file, score: factScore(text, s.path), order };
    })
    .filter((s) => s.score >= 2 && s.text.length >= MIN_FACT_CHARS && s.text.length <= MAX_FACT_CHARS && !s.text.endsWith("?"));
  const seen = new Set<string>();
  return scored
    .filter((s) => !seen.has(s.text.toLowerCase()) && seen.add(s.text.toLowerCase()))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, FACTS_PER_STEP)
    .sort((a, b) => a.order - b.order)
    .map((s) => (s.from ? `${s.from}: ${s.text}` : s.text));
}
