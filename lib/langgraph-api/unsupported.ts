import type { PlatformErrorBody } from "./route";

/**
 * The answer to a LangGraph Platform API endpoint we deliberately do not offer
 * (docs/langgraph-api.md#unsupported): 405 with a `detail` saying what to do instead. 405 is
 * one of the statuses the official client does not retry.
 */
export function unsupported(detail: string): Response {
  const body: PlatformErrorBody = { detail, error: { code: "method_not_allowed", reason: "unsupported", message: detail } };
  return Response.json(body, { status: 405 });
}

/** What to say about assistant writes: assistants are flows. */
export const ASSISTANTS_ARE_FLOWS = "Assistants are flows: draw and publish them in the editor (a new published version is the assistant's new version).";
