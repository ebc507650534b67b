import { z } from "zod";

/** POST body: which flow to run and the task, in plain words. */
export const Body = z.object({
  flowId: z.string().min(1).max(64),
  task: z.string().trim().min(1, "Write a task for the flow, e.g. \"Summarize notes.md into summary.md\".").max(4000),
});
