/**
 * `npm run bench:stream`: answers that stream (docs/runs.md "Streaming"). BENCH_STREAM_RUNS
 * (50) runs, one after the other, through the built app (`npx next build` first) on its own
 * SQLite database, with the offline model at its default pace (OFFLINE_STREAM_WORD_MS, 10 ms
 * between words). Each run is BENCH_STREAM_TASK ("Summarize notes.md": a plan, one step that
 * reads the file, then the answer) posted to `POST /api/threads/:id/stream`; from the moment
 * the request is sent, it measures the answer's first text delta (time to first token) and
 * the end of its text part (time to last token), and how many deltas the answer came in; and,
 * from the step's start (its `data-step` in progress), the first piece of the step's own text
 * (its transient `data-steptext`). Prints p50 and p99 in ms.
 */
import { signIn, type StreamChunk } from "../tests/http/client";
import { startServer } from "../tests/http/server";

const RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 50);
const TASK = process.env.BENCH_STREAM_TASK ?? "Summarize notes.md";

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

/** Reads a UI message stream, noting when each chunk arrived (ms since `t0`). */
async function timed(res: Response, t0: number): Promise<{ chunk: StreamChunk; at: number }[]> {
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  const out: { chunk: StreamChunk; at: number }[] = [];
  let buffer = "";
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const at = performance.now() - t0;
    buffer += decoder.decode(next.value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const l of lines) if (l.startsWith("data: ") && l !== "data: [DONE]") out.push({ chunk: JSON.parse(l.slice(6)) as StreamChunk, at });
  }
  return out;
}

async function main(): Promise<void> {
  const s = await startServer();
  try {
    const [a] = s.users;
    if (!a) throw new Error("no user");
    const c = await signIn(s.url, a.email, a.password);
    const first: number[] = [];
    const last: number[] = [];
    const pieces: number[] = [];
    const stepFirst: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const created = await c.post("/api/threads", { flowId: a.flowId, task: TASK });
      const { threadId } = (await created.json()) as { threadId: string };
      const t0 = performance.now();
      const res = await c.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: TASK } });
      const got = await timed(res, t0);
      const deltas = got.filter((g) => g.chunk.type === "text-delta" && g.chunk.id?.startsWith("final-"));
      const end = got.find((g) => g.chunk.type === "text-end" && g.chunk.id?.startsWith("final-"));
      const status = got.filter((g) => g.chunk.type === "data-run").at(-1)?.chunk.data?.status;
      if (!deltas[0] || !end || status !== "completed") throw new Error(`run ${i}: no streamed answer (${String(status)})`);
      first.push(deltas[0].at);
      last.push(end.at);
      pieces.push(deltas.length);
      const stepStart = got.find((g) => g.chunk.type === "data-step" && g.chunk.data?.status === "in_progress");
      const stepText = stepStart && got.find((g) => g.chunk.type === "data-steptext" && g.chunk.data?.stepId === stepStart.chunk.data?.id);
      if (stepStart && stepText) stepFirst.push(stepText.at - stepStart.at);
    }
    const row = (name: string, xs: number[]) => `${name.padEnd(26)} p50 ${pct(xs, 50).toFixed(0).padStart(6)}  p99 ${pct(xs, 99).toFixed(0).padStart(6)}`;
    console.log(`${RUNS} runs of "${TASK}" with the offline model, through the built app (ms from the POST):`);
    console.log(row("time to first token (ms)", first));
    console.log(row("time to last token (ms)", last));
    console.log(row("deltas per answer", pieces));
    if (stepFirst.length > 0) console.log(`${row("step's first token (ms)", stepFirst)}  (from the step's start; ${stepFirst.length} runs)`);
  } finally {
    await s.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
