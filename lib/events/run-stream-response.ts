import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import type { RunChunk, RunUIMessage } from "../engine/ui-parts";
import { logger } from "../log";

const log = logger.child({ module: "run-stream" });

/** Options of {@link runStreamResponse}. */
export interface RunStreamResponseOptions {
  /** The run whose message this is: the stream starts message `run-<runId>`, as the replay names it (lib/engine/replay.ts). */
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
 * (lib/events/follow-thread.ts); whatever it yields is written in order. A chunk source
 * that throws ends the stream with an `error` part naming the failure (and is logged).
 */
export function runStreamResponse(chunks: AsyncIterable<{ chunk: RunChunk } | RunChunk>, opts: RunStreamResponseOptions): Response {
  const transform = opts.transform ?? ((c: RunChunk) => c);
  const stream = createUIMessageStream<RunUIMessage>({
    async execute({ writer }) {
      writer.write({ type: "start", messageId: `run-${opts.runId}` });
      for await (const item of chunks) {
        const chunk = await transform("chunk" in item ? item.chunk : item);
        if (chunk.type === "text") {
          writer.write({ type: "text-start", id: chunk.id });
          writer.write({ type: "text-delta", id: chunk.id, delta: chunk.text });
          writer.write({ type: "text-end", id: chunk.id });
        } else {
          writer.write(chunk);
        }
      }
      writer.write({ type: "finish" });
    },
    onError: (err) => {
      log.error({ err, runId: opts.runId }, "run stream failed");
      return err instanceof Error ? err.message : "The run stream failed; see the server log.";
    },
  });
  return createUIMessageStreamResponse({ stream, headers: opts.headers });
}
