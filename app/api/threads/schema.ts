import { z } from "zod";
import { MAX_TASK_CHARS, taskTooLongIssue } from "@/lib/task-text";

/**
 * POST body: which flow to run, the task in plain words (stored and run in full: over 4,000
 * chars it is refused, never cut; docs/runs.md#tasks), and optionally the version to run (else the latest).
 */
export const Body = z.object({
  flowId: z.string().min(1).max(64),
  task: z.string().trim().min(1, 'Write a task for the flow, e.g. "Summarize notes.md into summary.md".').max(MAX_TASK_CHARS, { error: taskTooLongIssue }),
  version: z.number({ error: "a version number: 1, 2, 3…" }).int("a version number: 1, 2, 3…").positive("a version number: 1, 2, 3…").optional(),
});
