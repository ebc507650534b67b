import { MAX_TASK_CHARS, tooLongText } from "@/lib/task-text";

/** From this many chars on, the form shows how many of the 4,000 a task uses. */
const SHOW_FROM_CHARS = 1000;

/** True when a task or message is over the limit and must be refused (docs/runs.md#tasks). */
export function overTaskLimit(text: string): boolean {
  return text.trim().length > MAX_TASK_CHARS;
}

/**
 * The task limit under a task or message box (docs/runs.md#tasks): nothing for a short text,
 * "1,900 / 4,000 characters" for a long one, and, over the limit, why it is refused (the form
 * disables its button: a text is never cut).
 */
export function TaskLimit({ text, field, testId }: { text: string; field: string; testId: string }) {
  const chars = text.trim().length;
  if (chars > MAX_TASK_CHARS) {
    return (
      <p className="error small task-limit" role="alert" data-testid={testId} data-over="true">
        {`The ${field} is ${tooLongText(chars)}`}
      </p>
    );
  }
  if (chars < SHOW_FROM_CHARS) return null;
  return (
    <span className="small muted task-limit" data-testid={testId} data-over="false">
      {`${chars.toLocaleString("en")} / ${MAX_TASK_CHARS.toLocaleString("en")} characters`}
    </span>
  );
}
