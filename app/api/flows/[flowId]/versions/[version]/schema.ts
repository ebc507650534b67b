import { z } from "zod";

/**
 * A version number in a URL: a positive integer written in digits ("1", "12"), turned
 * into a number; anything else is a 422 naming `version`.
 */
export const VersionNumber = z
  .string()
  .regex(/^[1-9][0-9]{0,8}$/, "a version number: 1, 2, 3…")
  .transform(Number);

/** Route params: the flow and one of its version numbers. */
export const Params = z.object({ flowId: z.string().min(1).max(64), version: VersionNumber });
