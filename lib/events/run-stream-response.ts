import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import type { LiveChunk, RunChunk, RunUIMessage } from "./ui-parts";
import { logger } from "../log";

const log = logger.child({ module: "run-stream" });

/**
 * The step id in an Executor's live text id (`step-<stepId>-<try>-<call>`, lib/engine/nodes/executor.ts).
 * @returns the step id, or null for another id.
 */
export function stepIdOfLive(id: string): string | null {
  return /^step-(.+)-\d+-\d+$/.exec(id)?.[1] ?? null;
}

/** Options of {@link runStreamResponse}. */
export interface RunStreamResponseOptions {
  /** The run whose message this is: the stream starts message `run-<runId>`, as the replay names it (lib/runs/replay.ts). */
  runId: string;
  /** Changes each chunk before it is written (e.g. lib/events/viewer-chunk.ts); identity by default. */
  transform?: (chunk: RunChunk) => RunChunk | Promise<RunChunk>;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/**
 * The AI SDK UI message stream response of one run (docs/architecture.md#live-streams):
 * `start` (messageId `run-<runId>`), each chunk (text as text-start/delta/end, data parts as
 * they are), then `finish`. `chunks` is usually a follow of the thread's stored events
 * (lib/runs/follow-thread.ts); whatever it yields is written in order. The answer's live
 * text (docs/runs.md "Streaming") opens its text part and grows it delta by delta; the
 * stored answer then adds what is missing (the rest of the text, the run's report) and ends
 * the part. A stored answer that does not go on from what was streamed (a model error after
 * some text) comes as a part of its own. A step's live text (node `executor`) goes as
 * transient `data-steptext` parts (lib/events/ui-parts.ts): the run view shows it on the
 * running step, and the step's stored `data-step` brings the finished text. A chunk source
 * that throws ends the stream with an `error` part naming the failure (and is logged).
 */
export function runStreamResponse(chunks: AsyncIterable<{ chunk: RunChunk } | { live: LiveChunk } | RunChunk>, opts: RunStreamResponseOptions): Response {
  const transform = opts.transform ?? ((c: RunChunk) => c);
  const stream = createUIMessageStream<RunUIMessage>({
    async execute({ writer }) {
      writer.write({ type: "start", messageId: `run-${opts.runId}` });
      /** Text written so far of each answer part still open, by part id. */
      const open = new Map<string, string>();
      for await (const item of chunks) {
        if ("live" in item) {
          const live = item.live;
          if (live.type !== "text-delta") continue;
          if (live.node === "executor") {
            // A running step's text: a transient part the run view places by offset (a resumed
            // stream sends the text so far again at offset 0), shown until the step ends.
            const stepId = stepIdOfLive(live.id);
            if (stepId !== null) writer.write({ type: "data-steptext", id: live.id, data: { stepId, at: live.at ?? 0, delta: live.delta }, transient: true });
            continue;
          }
          const so = open.get(live.id);
          if (so === undefined) writer.write({ type: "text-start", id: live.id });
          writer.write({ type: "text-delta", id: live.id, delta: live.delta });
          open.set(live.id, (so ?? "") + live.delta);
          continue;
        }
        const chunk = await transform("chunk" in item ? item.chunk : item);
        if (chunk.type === "text") {
          const so = open.get(chunk.id);
          open.delete(chunk.id);
          if (so !== undefined && chunk.text.startsWith(so)) {
            const rest = chunk.text.slice(so.length);
            if (rest) writer.write({ type: "text-delta", id: chunk.id, delta: rest });
            writer.write({ type: "text-end", id: chunk.id });
            continue;
          }
          if (so !== undefined) writer.write({ type: "text-end", id: chunk.id });
          const id = so === undefined ? chunk.id : `${chunk.id}-final`;
          writer.write({ type: "text-start", id });
          writer.write({ type: "text-delta", id, delta: chunk.text });
          writer.write({ type: "text-end", id });
        } else {
          writer.write(chunk);
        }
      }
      // An answer cut off (a cancel mid-answer): its part ends with what was written.
      for (const id of open.keys()) writer.write({ type: "text-end", id });
      writer.write({ type: "finish" });
    },
    onError: (err) => {
      log.error({ err, runId: opts.runId }, "run stream failed");
      return err instanceof Error ? err.message : "The run stream failed; see the server log.";
    },
  });
  return createUIMessageStreamResponse({ stream, headers: opts.headers });
}
