/** What an MCP API call answered: the JSON, or the error message and per-field messages. */
export type ApiAnswer<T> = { ok: true; data: T } | { ok: false; message: string; fields: Record<string, string> };

/**
 * Calls `/api/workspaces/:id/mcp...` with a JSON body. Errors come back as the server's
 * message (it says what to do) and, per top-level field, the message of its first issue;
 * AppError messages of the form `field: ...` are mapped to that field too.
 */
export async function callMcpApi<T>(url: string, method: "GET" | "POST" | "PATCH" | "DELETE", body?: unknown): Promise<ApiAnswer<T>> {
  try {
    const res = await fetch(url, { method, ...(body !== undefined ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}) });
    if (res.ok) return { ok: true, data: (res.status === 204 ? null : await res.json()) as T };
    const err = (await res.json().catch(() => null)) as { error?: { message?: string; issues?: { path: string; message: string }[] } } | null;
    const message = err?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`;
    const fields: Record<string, string> = {};
    for (const issue of err?.error?.issues ?? []) {
      const field = issue.path.split(".")[0] || "form";
      fields[field] ??= issue.path.includes(".") ? `${issue.path.slice(field.length + 1)}: ${issue.message}` : issue.message;
    }
    const prefixed = /^([a-z]+)[.:]/.exec(message);
    if (!err?.error?.issues && prefixed?.[1]) fields[prefixed[1]] = message.slice(prefixed[1].length).replace(/^[.:]\s*/, "");
    return { ok: false, message, fields };
  } catch {
    return { ok: false, message: "Could not reach the server; check that it is running and try again.", fields: {} };
  }
}

/**
 * Parses secret lines as the add form takes them: `NAME=value` (env vars) or `Name: value`
 * (headers), blank lines skipped.
 * @returns the secrets, or the first bad line's message.
 */
export function parseSecretLines(text: string, kind: "env" | "header"): { ok: true; secrets: Record<string, string> } | { ok: false; message: string } {
  const secrets: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (!line) continue;
    const at = line.indexOf(kind === "env" ? "=" : ":");
    if (at <= 0) return { ok: false, message: `line ${i + 1}: write ${kind === "env" ? "NAME=value" : "Header-Name: value"}` };
    secrets[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { ok: true, secrets };
}
