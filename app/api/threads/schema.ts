import { z } from "zod";

/** POST body: which flow to run, the task in plain words, and optionally the version to run (else the latest). */
export const Body = z.object({
  flowId: z.string().min(1).max(64),
  task: z.string().trim().min(1, "Write a task for the flow, e.g. \"Summarize notes.md into summary.md\".").max(4000),
  version: z.number({ error: "a version number: 1, 2, 3…" }).int("a version number: 1, 2, 3…").positive("a version number: 1, 2, 3…").optional(),
});
