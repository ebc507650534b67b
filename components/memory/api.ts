/**
 * The memory routes as the browser calls them: one JSON request helper that
 * turns the routes' `{ error: { code, reason, message, issues? } }` bodies into a message
 * and per-field issues, so every form and button shows what went wrong and what to do.
 */

/** A field problem from a 422 answer (`path` is dotted, e.g. "tags.0"). */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The outcome of `callApi`: the parsed body, or the error's message, status and field issues. */
export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; message: string; issues: FieldIssue[] };

/**
 * Sends a JSON request to one of the app's routes.
 * @param method HTTP method.
 * @param url same-origin path, e.g. `/api/memory/facts/abc/accept`.
 * @param body sent as JSON when given.
 * @returns never throws: a network failure reads as status 0 with a message to retry.
 */
export async function callApi<T>(method: "GET" | "POST" | "DELETE", url: string, body?: unknown): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, status: 0, message: `The server could not be reached (${why}). Check the connection and try again.`, issues: [] };
  }
  const parsed = (await res.json().catch(() => null)) as unknown;
  if (res.ok) return { ok: true, status: res.status, data: parsed as T };
  const error = (parsed as { error?: { message?: string; issues?: FieldIssue[] } } | null)?.error;
  return { ok: false, status: res.status, message: error?.message ?? `The server answered HTTP ${res.status}; try again.`, issues: error?.issues ?? [] };
}
