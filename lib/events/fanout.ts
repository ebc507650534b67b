import { logger } from "../log";

/**
 * Fan-out of small notifications between the server processes that share one database
 * (docs/architecture.md#live-streams): `notify(channel, payload)` reaches every
 * `listen(channel, …)` handler of every process. Notifications are hints, never data: they
 * carry ids (a thread and a seq, an approval), the listener re-reads the database, and a
 * lost one only delays it until its next poll. Two implementations share these semantics:
 * in-process (the embedded SQLite default, lib/events/in-process-fanout.ts) and PostgreSQL
 * LISTEN/NOTIFY (lib/events/pg-fanout.ts); lib/events/fanout-of.ts picks one by database URL.
 */

/** Stops one listener (idempotent). `ready` settles once the listener hears notifications. */
export type Unlisten = (() => void) & { ready: Promise<void> };

/** A notification handler; it gets the payload as the notifier passed it (a JSON copy). */
export type FanoutHandler = (payload: unknown) => void;

/** Notifications to and from every process on the same database. */
export interface Fanout {
  /**
   * Sends `payload` (JSON-serialisable, at most {@link MAX_PAYLOAD_BYTES} once serialised)
   * to every listener of `channel`, in every process. Best effort: resolves once sent,
   * never rejects for a delivery failure (it is logged; listeners poll).
   * @throws Error (rejects) when the channel name or the payload size is invalid (a bug).
   */
  notify(channel: string, payload: unknown): Promise<void>;
  /**
   * Calls `handler` with each payload notified on `channel` from now on, in the order they
   * were sent by one notifier, asynchronously (never inside `notify`). A handler that
   * throws is logged; the others still run.
   * @throws Error when the channel name is invalid (a bug).
   */
  listen(channel: string, handler: FanoutHandler): Unlisten;
  /** Stops listening and releases connections (tests, shutdown). */
  close(): Promise<void>;
}

/** PostgreSQL's NOTIFY limit is 8000 bytes; keep payloads far below it (ids only). */
export const MAX_PAYLOAD_BYTES = 7_999;

/** Channel names: lower-case identifiers PostgreSQL takes unquoted (at most 63 bytes). */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a channel name and serialises a payload.
 * @returns the payload's JSON text.
 * @throws Error when the name is not a lower-case identifier or the JSON is over
 *   {@link MAX_PAYLOAD_BYTES} bytes (UTF-8).
 */
export function encodeNotification(channel: string, payload: unknown): string {
  checkChannel(channel);
  const text = JSON.stringify(payload ?? null);
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_PAYLOAD_BYTES) throw new Error(`fanout: the payload on ${channel} is ${bytes} bytes; notify ids only (at most ${MAX_PAYLOAD_BYTES}).`);
  return text;
}

/**
 * Checks a channel name.
 * @throws Error when it is not a lower-case identifier of at most 63 chars.
 */
export function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`fanout: "${channel}" is not a channel name (lower-case letters, digits, _; at most 63).`);
}

const log = logger.child({ module: "fanout" });

/** Runs every handler of one delivery; a failing handler is logged and the rest still run. */
export function deliver(channel: string, handlers: Iterable<FanoutHandler>, text: string): void {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (err) {
    log.warn({ err, channel }, "fanout: a notification that is not JSON was dropped");
    return;
  }
  for (const handler of [...handlers]) {
    try {
      handler(payload);
    } catch (err) {
      log.error({ err, channel }, "fanout: a listener failed");
    }
  }
}

/** An {@link Unlisten} built from a stop function and a readiness promise. */
export function unlistenOf(stop: () => void, ready: Promise<void>): Unlisten {
  let stopped = false;
  return Object.assign(
    () => {
      if (stopped) return;
      stopped = true;
      stop();
    },
    { ready },
  );
}
