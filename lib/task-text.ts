/**
 * A task and its title (docs/runs.md#tasks). The task is stored and run in full; an input
 * over its limit is refused with an error naming the field and the limit, never cut. The
 * title is only for display: the task on one line, shortened with "…".
 */

/** The most a task or a message may hold, chars (the API, the run form and the composer). */
export const MAX_TASK_CHARS = 4000;

/** The most of a task a thread's title shows, chars (then "…"). */
export const TITLE_CHARS = 120;

/**
 * A thread's display title: the task with its whitespace collapsed to single spaces, cut at
 * {@link TITLE_CHARS} chars with "…" when longer. Never used as the task.
 * @param task the task as the user wrote it.
 */
export function displayTitle(task: string): string {
  const line = task.trim().replace(/\s+/g, " ");
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1).trimEnd()}…` : line;
}

/**
 * Why a text over the task limit is refused, e.g. `4,001 characters; at most 4,000. Shorten
 * it, or put the details in a file of the workspace and name the file.` (the API prefixes
 * the field's name).
 * @param chars the text's length after trimming, chars.
 */
export function tooLongText(chars: number): string {
  return `${chars.toLocaleString("en")} characters; at most ${MAX_TASK_CHARS.toLocaleString("en")}. Shorten it, or put the details in a file of the workspace and name the file.`;
}

/**
 * The zod `max` error of a task or message field: {@link tooLongText} of the trimmed input.
 * Use as `z.string().trim().max(MAX_TASK_CHARS, { error: taskTooLongIssue })`.
 */
export function taskTooLongIssue(issue: { input?: unknown }): string {
  return tooLongText(typeof issue.input === "string" ? issue.input.length : MAX_TASK_CHARS + 1);
}
