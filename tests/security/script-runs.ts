import type { Client } from "../http/client";

/**
 * Runs that call run_javascript through the built app, for the CPU isolation test and bench
 * (docs/security.md "CPU isolation"): the offline model turns "Compute `<code>`" into one
 * run_javascript call on a flow whose policy allows it (the Memory assistant template).
 */

/** A run's script as the stream reports it: "running", then "done" or "error" with the tool's answer. */
export interface ScriptPart {
  status: string;
  output: string | null;
}

/** Longest wait for one HTTP answer, ms. */
const REQUEST_LIMIT_MS = 30_000;

/** The run_javascript parts of a UI message stream's text (SSE lines), in order. */
export function scriptParts(text: string): ScriptPart[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)) as { type: string; data?: { toolName?: string; status?: string; output?: string | null } })
    .filter((c) => c.type === "data-tool" && c.data?.toolName === "run_javascript")
    .map((c) => ({ status: String(c.data?.status), output: c.data?.output ?? null }));
}

/**
 * How a run's first script ended, in a word: "js_timeout" (stopped at its deadline), "timeout"
 * (the call's time ran out while it waited for a thread), "js_busy" (refused: the queue was
 * full), "ok", or the start of another answer.
 */
export function scriptEnding(text: string): string {
  const parts = scriptParts(text);
  const last = parts.find((p) => p.status === "done" || p.status === "error") ?? parts.at(-1);
  if (!last?.output) return last?.status ?? "no script";
  if (last.status === "done") return "ok";
  if (/ran longer than/.test(last.output)) return "js_timeout";
  if (/timed out/.test(last.output)) return "timeout";
  if (/Too many scripts/.test(last.output)) return "js_busy";
  return last.output.slice(0, 60);
}

/**
 * Creates a thread on `flowId` and streams a run of `task`.
 * @param opts.firstScript true to stop reading (and so end the run, which lives in its
 *   request) once the first script has ended: a script that fails is a failed try, and the
 *   run would go on to retry it, plan again and ask the user (docs/runs.md).
 * @returns `running`, resolved once the run's script started (or the stream ended), and
 *   `done`, the stream's text (up to the first script's end with `firstScript`).
 * @throws Error when the thread or the stream is refused.
 */
export async function startScriptRun(c: Client, flowId: string, task: string, opts: { firstScript?: boolean } = {}): Promise<{ running: Promise<void>; done: Promise<string> }> {
  const created = await c.post("/api/threads", { flowId, task });
  if (created.status !== 201) throw new Error(`new thread: HTTP ${created.status} ${await created.text()}`);
  const { threadId } = (await created.json()) as { threadId: string };
  const res = await c.fetch(`/api/threads/${threadId}/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: { kind: "message", text: task } }),
    signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream: HTTP ${res.status} ${await res.text()}`);
  let started: () => void = () => {};
  const running = new Promise<void>((r) => {
    started = r;
  });
  const body = res.body;
  const done = (async () => {
    let text = "";
    const decoder = new TextDecoder();
    const reader = body.getReader();
    while (true) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
      const parts = scriptParts(text.slice(0, text.lastIndexOf("\n") + 1));
      if (parts.some((p) => p.status === "running")) started();
      if (opts.firstScript && parts.some((p) => p.status === "done" || p.status === "error")) {
        await reader.cancel();
        text = text.slice(0, text.lastIndexOf("\n") + 1);
        break;
      }
    }
    started();
    return text;
  })();
  return { running, done };
}

/**
 * Latencies of `count` GETs of `url`, ms, sorted: one sent every `spacingMs` on a fixed
 * schedule, each timed from its scheduled send, so a stalled server cannot hide behind
 * fewer samples.
 * @throws Error on a non-2xx answer or past the time limit of one request.
 */
export async function sampleLatencies(url: string, count: number, spacingMs: number): Promise<number[]> {
  const t0 = performance.now();
  const one = async (i: number) => {
    const slot = t0 + i * spacingMs;
    await new Promise((r) => setTimeout(r, Math.max(0, slot - performance.now())));
    const res = await fetch(url, { signal: AbortSignal.timeout(REQUEST_LIMIT_MS) });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - slot;
  };
  return (await Promise.all(Array.from({ length: count }, (_, i) => one(i)))).sort((a, b) => a - b);
}

/** The `p`th percentile (0-100) of sorted values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? Number.NaN;
}
