/** Where a server-sent events stream writes (see {@link sseResponse}). */
export interface SseSink {
  /**
   * Writes one event: `event: <name>`, `data: <JSON>` and, when given, `id: <id>` (what a
   * client sends back as `Last-Event-ID` to resume); nothing once the stream closed.
   */
  event(name: string, data: unknown, id?: string): void;
  /** Ends the stream (the producer has nothing more); the unsubscribe function still runs once. */
  close(): void;
}

/** Options of {@link sseResponse}. */
export interface SseOptions {
  /** The request's signal: the stream ends when the browser goes away. */
  signal: AbortSignal;
  /** A `: keep-alive` comment this often, ms (proxies drop idle connections). */
  keepAliveMs: number;
  /** How long EventSource waits before reconnecting, ms (the stream's first line). */
  retryMs?: number;
}

/**
 * A `text/event-stream` Response (the HTML Living Standard's server-sent events) that stays
 * open: `retry:` first, then what `open` writes, a keep-alive comment every `keepAliveMs`, and
 * the end when the browser goes away or the runtime cancels. `open` subscribes to what it
 * forwards and returns the function that unsubscribes, called exactly once at the end.
 * Headers keep compression and proxy buffering away from the stream.
 */
export function sseResponse(opts: SseOptions, open: (sink: SseSink) => (() => void) | Promise<() => void>): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let cleanup: (() => void) | null = null;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const keepAlive = setInterval(() => write(": keep-alive\n\n"), opts.keepAliveMs);
      stop = () => {
        if (closed) return;
        closed = true;
        clearInterval(keepAlive);
        cleanup?.();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      opts.signal.addEventListener("abort", () => stop(), { once: true });
      if (opts.signal.aborted) return stop();
      write(`retry: ${opts.retryMs ?? 3_000}\n\n`);
      const unsubscribe = await open({
        event: (name, data, id) => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n${id === undefined ? "" : `id: ${id}\n`}\n`),
        close: () => stop(),
      });
      if (closed) unsubscribe();
      else cleanup = unsubscribe;
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
