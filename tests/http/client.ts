/**
 * A signed-in HTTP client for integration tests: Auth.js credentials sign-in (CSRF token,
 * then the callback), cookies kept, and a reader for AI SDK UI message streams (SSE).
 */
export interface Client {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
  /** The `cookie` header the client sends (its session). */
  cookie(): string;
  /** The app's origin (`http://127.0.0.1:<port>`), as its own pages send it in `Origin`. */
  origin?: string;
}

/** A UI message stream chunk as the server sent it. */
export type StreamChunk = { type: string; id?: string; data?: Record<string, unknown>; delta?: string };

function mergeCookies(jar: Map<string, string>, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const eq = pair?.indexOf("=") ?? -1;
    if (pair && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

/**
 * Signs in and returns a client carrying the session cookie.
 * @throws Error when the sign-in does not produce a session.
 */
export async function signIn(base: string, email: string, password: string): Promise<Client> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  mergeCookies(jar, csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${base}/flows` }),
  });
  mergeCookies(jar, res);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error(`sign-in failed for ${email}: HTTP ${res.status}`);
  const client: Client = {
    fetch: (p, init = {}) => fetch(`${base}${p}`, { ...init, redirect: "manual", headers: { ...(init.headers ?? {}), cookie: cookie() } }),
    post: (p, body) => client.fetch(p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    cookie,
    origin: base,
  };
  return client;
}

/** Reads a whole UI message stream response into its chunks. */
export async function readStream(res: Response): Promise<StreamChunk[]> {
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as StreamChunk);
}

/** Reads UI message chunks from a response until `until` holds; the rest of the body is read by `rest`. */
export async function readUntil(res: Response, until: (c: StreamChunk) => boolean): Promise<{ head: StreamChunk[]; rest: () => Promise<StreamChunk[]> }> {
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  const head: StreamChunk[] = [];
  const parse = (lines: string[]) => lines.filter((l) => l.startsWith("data: ") && l !== "data: [DONE]").map((l) => JSON.parse(l.slice(6)) as StreamChunk);
  while (!head.some(until)) {
    const next = await reader.read();
    if (next.done) break;
    buffer += decoder.decode(next.value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    head.push(...parse(lines));
  }
  return {
    head,
    rest: async () => {
      let tail = buffer;
      for (let next = await reader.read(); !next.done; next = await reader.read()) tail += decoder.decode(next.value, { stream: true });
      return parse(tail.split("\n"));
    },
  };
}

/** The last data part of a type (e.g. "data-approval") in a list of chunks. */
export function lastPart(chunks: StreamChunk[], type: string): Record<string, unknown> | undefined {
  return chunks.filter((c) => c.type === type).at(-1)?.data;
}
