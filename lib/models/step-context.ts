import { parseVerdict } from "./brief-review";
import { taskFileNames } from "./offline-text";
import type { SourceText } from "./source-text";

/**
 * Sorts the results of earlier steps (an executor prompt's `<step-result>` blocks) into what
 * the offline model may build on: the texts of files that were read, a person's answers to
 * Human-input questions (and the audience and focus they ask for), a Reviewer's feedback,
 * and failures (never used as content).
 */

/** One `<step-result>` of the executor prompt. */
export interface ContextEntry {
  task: string;
  result: string;
}

export type { SourceText } from "./source-text";

/** What a Human-input answer asks of the writing. */
export interface Shaping {
  /** Who the text is for, as the person put it ("the engineering managers"). */
  audience?: string;
  /** What to put first ("deadlines"). */
  focus?: string;
}

/** The task the engine gives a Reviewer's feedback when it re-runs the reviewed step. */
export const REVIEWER_FEEDBACK_TASK = "Reviewer feedback";

/** The offline executor's own report headers: results that describe a tool call. */
const READ_HEADER = /^Read \d+ characters from (.+?):\n/;
const CUT_MARKER = /\n\[\u2026 cut at \d+ characters\]$/;
const REPORT =
  /^(?:Read \d+ characters from |Wrote \d+ bytes to |Deleted |\S+ has \d+ entries|\S+ is empty\.|Files in |Found \d+ TODO|Found no TODO|Verdict: |Review of |Summary of |From memory:|Remembered|Already remembered|Nothing is remembered|The script returned|(?:GET|HEAD|POST|PUT|PATCH|DELETE) \S+ returned )/;

/**
 * True when a step result reports a failure rather than content: the offline model's
 * "<tool> on <x> failed: …" / "was not run: …", an engine "ERROR: …", a policy block, a
 * refused call or a model error.
 */
export function isFailureText(text: string): boolean {
  const t = text.trim();
  return (
    /^ERROR\b/.test(t) || /^BLOCKED\b/.test(t) || /^model error:/i.test(t) || /^[\w.-]+(?: on \S+)? (?:failed|was not run):/.test(t) || /; the call was refused\.$/.test(t) || /^I can't\b/.test(t)
  );
}

/** True when the entry is a person's answer to a Human-input question. */
export function isHumanAnswer(entry: ContextEntry): boolean {
  if (REPORT.test(entry.result) || isFailureText(entry.result) || entry.task === REVIEWER_FEEDBACK_TASK) return false;
  const task = entry.task.trim();
  return /\?$/.test(task) || /^(?:who|what|which|how|when|where|why|should|do|does|is|are)\b/i.test(task) || /\b(?:audience|focus)\b/i.test(task);
}

/** The line read_file puts above a PDF's or DOCX's text (docs/documents.md "Extraction"): not a point of the document. */
const EXTRACT_HEADER = /^\[Text extracted from [^\n]*\]\s*/;

/** The files read by earlier steps, with their text (the executor's quote and an extract's header removed). */
export function sourcesOf(context: ContextEntry[]): SourceText[] {
  const out: SourceText[] = [];
  for (const c of context) {
    if (c.task === REVIEWER_FEEDBACK_TASK || isFailureText(c.result) || isHumanAnswer(c)) continue;
    const header = READ_HEADER.exec(c.result);
    if (header?.[1]) {
      const body = c.result.slice(header[0].length);
      out.push({ file: header[1], text: body.replace(CUT_MARKER, "").trim().replace(EXTRACT_HEADER, ""), ...(CUT_MARKER.test(body) ? { cut: true } : {}) });
      continue;
    }
    // A result written by another model: the file its task names, the text as given.
    const file = /^read\b/i.test(c.task) ? taskFileNames(c.task)[0] : undefined;
    if (file && !REPORT.test(c.result) && c.result.trim()) out.push({ file, text: c.result.trim().replace(EXTRACT_HEADER, "") });
  }
  return out.filter((s, i) => out.findIndex((o) => o.file === s.file) === i);
}

function tidy(text: string): string {
  return text
    .trim()
    .replace(/^(?:and|but)\s+/i, "")
    .replace(/[\s.;,!]+$/, "");
}

/**
 * The audience and focus a person asked for in their answers. Audience: "for <who>",
 * "audience: <who>", "it's for <who>", or a whole short answer to a "who …" question.
 * Focus: "focus(ing) on <what>", "emphasise/highlight <what>", "focus: <what>". Each phrase
 * ends at ";", ",", "." or " and focus".
 */
export function shapingOf(context: ContextEntry[]): Shaping {
  const shaping: Shaping = {};
  for (const c of context.filter(isHumanAnswer)) {
    const answer = c.result.replace(/\s+/g, " ").trim();
    const focus = /\b(?:focus(?:ing|ed)?\s+(?:on|upon)|focus:|emphasi[sz]e|highlight|prioriti[sz]e)\s+(?:the\s+)?([^;.!?]+)/i.exec(answer)?.[1];
    if (focus && !shaping.focus) shaping.focus = tidy(focus.replace(/,?\s+(?:for|please)\b.*$/i, ""));
    const audience =
      /\b(?:audience(?: is)?:?|(?:it'?s|it is|this is|written)\s+for|^for)\s+([^;,.!?]+?)(?=\s+(?:and\s+)?(?:focus|emphasi|highlight|priorit)|[;,.!?]|$)/i.exec(answer)?.[1] ??
      /(?:^|[;,.]\s*)for\s+([^;,.!?]+?)(?=\s+(?:and\s+)?(?:focus|emphasi|highlight|priorit)|[;,.!?]|$)/i.exec(answer)?.[1];
    if (audience && !shaping.audience) shaping.audience = tidy(audience);
    else if (!shaping.audience && /^who\b/i.test(c.task.trim())) {
      // A bare answer to "Who is it for?": its first clause.
      const first = tidy(answer.split(/[;,.!?]|\s+(?:and\s+)?(?:focus|emphasi|highlight|priorit)/i)[0] ?? "");
      if (first && first.length <= 80) shaping.audience = first;
    }
  }
  return shaping;
}

/** The Reviewer's feedback on the step being re-run: points it found unsupported and sources left unused. */
export function feedbackOf(context: ContextEntry[]): { unsupported: string[]; unused: string[] } | undefined {
  const entry = context.find((c) => c.task === REVIEWER_FEEDBACK_TASK);
  if (!entry) return undefined;
  const verdict = parseVerdict(entry.result);
  return { unsupported: verdict?.unsupported ?? [], unused: verdict?.unused ?? [] };
}

/** Files earlier steps tried to read but could not, with the failure as reported. */
export function unreadSourcesOf(context: ContextEntry[]): { file: string; why: string }[] {
  return context.flatMap((c) => {
    const file = /^read\b/i.test(c.task) && isFailureText(c.result) ? taskFileNames(c.task)[0] : undefined;
    return file ? [{ file, why: c.result.trim().split("\n")[0] ?? "" }] : [];
  });
}

/** The texts of the files earlier steps read, one after the other (failures left out). */
export function sourceBody(context: ContextEntry[]): string {
  return sourcesOf(context)
    .map((s) => s.text)
    .join("\n\n");
}
