import type { z } from "zod";

/**
 * Short messages for form fields, in place of zod's generic ones ("Too small: expected
 * string to have >=1 characters" becomes "Required"). Pass as the `error` parse option
 * (`schema.safeParse(v, { error: fieldMessage })`, `zodResolver(schema, { error: fieldMessage })`):
 * messages a schema sets itself (e.g. "snake_case tool name") still win, and issues this
 * does not know keep zod's message (it returns undefined).
 */
export function fieldMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_type":
      if (issue.expected === "number") return "Enter a number";
      if (issue.expected === "int") return "Enter a whole number";
      if (issue.expected === "string" && issue.input === undefined) return "Required";
      return undefined;
    default:
      return undefined;
  }
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>): string | undefined {
  const min = Number(issue.minimum);
  switch (issue.origin) {
    case "string":
      return min <= 1 ? "Required" : `At least ${min} characters`;
    case "number":
    case "int":
      return issue.inclusive === false ? `Must be more than ${min}` : `At least ${min}`;
    case "array":
      return `Add at least ${min}`;
    default:
      return undefined;
  }
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>): string | undefined {
  const max = Number(issue.maximum);
  switch (issue.origin) {
    case "string":
      return `At most ${max} characters`;
    case "number":
    case "int":
      return issue.inclusive === false ? `Must be less than ${max}` : `At most ${max}`;
    case "array":
      return `At most ${max} entries`;
    default:
      return undefined;
  }
}
