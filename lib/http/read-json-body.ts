import { AppError } from "../errors";
import { findInputFault } from "./input-fault";
import { DEFAULT_MAX_BODY_BYTES, formatBytes, MAX_JSON_DEPTH } from "./input-limits";
import { jsonDepthOverflow } from "./json-depth";

/** Options of {@link readJsonBody}. */
export interface BodyLimits {
  /** Largest body accepted, in bytes (default {@link DEFAULT_MAX_BODY_BYTES}, 1 MiB). */
  maxBytes?: number;
  /** Deepest nesting of arrays and objects (default {@link MAX_JSON_DEPTH}, 64). */
  maxDepth?: number;
}

// Content types a JSON body may come with: none, application/json, any +json type, and
// text/plain (what fetch sends for a string body when no type is set).
const JSON_TYPE = /^(application\/([\w.+-]+\+)?json|text\/plain)\s*(;|$)/i;

const tooLarge = (maxBytes: number) =>
  new AppError("payload_too_large", "body_too_large", `The request body is over this endpoint's limit of ${formatBytes(maxBytes)} (${maxBytes} bytes); send less.`, { maxBytes });

/**
 * Reads the rest of an oversized body and throws the bytes away (nothing is kept), so that
 * the connection is at the client's next request when the 413 goes out. Cancelling the
 * stream instead leaves the unread rest on a keep-alive connection: the server answers 413
 * with `Connection: keep-alive`, then never answers the next request sent on it, and the
 * connection ends only when its keep-alive time runs out. A body that never ends is ended
 * by the server's request timeout, as for any slow body.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  for (;;) {
    const { done } = await reader.read().catch(() => ({ done: true as const }));
    if (done) return;
  }
}

async function readCapped(req: Request, maxBytes: number): Promise<Uint8Array> {
  // A declared length over the cap is refused before reading: nothing has touched the
  // body, so the Node server reads and discards it after the answer.
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      chunks.length = 0;
      await discardRest(reader);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads a request's JSON body in the order that keeps hostile input cheap (docs/security.md
 * "Input limits"): content type, then the bytes up to a cap (never more is buffered), then
 * strict UTF-8, then a linear depth scan, then `JSON.parse`, then an iterative walk that
 * refuses lone surrogates and `__proto__` keys. Only then may zod or any recursive code see it.
 * @param limits per-route caps (bytes, depth).
 * @returns the parsed JSON value.
 * @throws AppError unsupported_media_type (415) for a non-JSON content type;
 *   payload_too_large (413) over `maxBytes`, naming the limit (a streamed body is read to
 *   its end and discarded first, so the connection stays usable); bad_request (400) for
 *   bytes that are not UTF-8 or text that is not JSON; unprocessable (422) when nested
 *   deeper than `maxDepth`, or naming the field with a lone surrogate or `__proto__` key.
 */
export async function readJsonBody(req: Request, limits: BodyLimits = {}): Promise<unknown> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const type = req.headers.get("content-type");
  if (type !== null && !JSON_TYPE.test(type.trim())) {
    throw new AppError("unsupported_media_type", "not_json", `The request body must be JSON (content-type: application/json), not ${type.slice(0, 100)}.`);
  }
  const bytes = await readCapped(req, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", "invalid_utf8", "The request body must be JSON encoded as UTF-8; it has bytes that are not UTF-8.");
  }
  const deepAt = jsonDepthOverflow(text, maxDepth);
  if (deepAt >= 0) {
    throw new AppError("unprocessable", "json_too_deep", `The request body nests arrays and objects more than ${maxDepth} levels deep (at character ${deepAt}); flatten it.`, { maxDepth });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "invalid_json", text.trim() === "" ? "The request body is empty; send a JSON object." : "The request body must be JSON.");
  }
  const fault = findInputFault(raw);
  if (fault) {
    const path = fault.path || "body";
    throw new AppError("unprocessable", "invalid_input", `${path}: ${fault.message}.`, { issues: [{ path: fault.path, message: fault.message }] });
  }
  return raw;
}
