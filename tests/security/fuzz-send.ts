/**
 * How the route fuzzer sends one request and judges the transport (docs/security.md "Input
 * limits"): a request that gets no answer within its time is a hang; a connection closed or
 * reset before any answer is a reset; each is reported with its error code. A GET or HEAD
 * (safe and idempotent, RFC 9110 section 9.2) that is reset before any answer is sent once
 * more on a new attempt, and the retry is reported too; nothing else is retried.
 */

/** Why a request got no answer: a hang (no answer in time), a reset, or another error. */
export interface TransportFailure {
  kind: "hang" | "reset" | "error";
  /** The error code: `timeout`, or the code of undici's cause (ECONNRESET, UND_ERR_SOCKET, …). */
  code: string;
  /** The error and its cause, as one line. */
  message: string;
}

/** What came back: a status (0 when no answer), the body of an error, and any failure or retry. */
export interface SendResult {
  status: number;
  /** The first 2,000 characters of the body of a 4xx or 5xx answer. */
  body?: string;
  failure?: TransportFailure;
  /** The reset that the one retry of a GET or HEAD followed. */
  retriedAfter?: TransportFailure;
}

/** Cause codes of a connection closed or reset under a request (undici's and the OS's). */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
/** Cause codes of an answer that did not come in time (undici's own timers). */
const HANG_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * Names what went wrong with a request: `AbortSignal.timeout`'s TimeoutError is a hang,
 * fetch's "fetch failed" is judged by its `cause.code`.
 * @param timeoutMs the time the request had, for the message (ms).
 */
export function classifyFailure(err: unknown, timeoutMs: number): TransportFailure {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return { kind: "hang", code: "timeout", message: `no answer within ${timeoutMs} ms` };
  const code = e?.cause?.code ?? e?.code ?? "unknown";
  const message = `${e?.name ?? "Error"}: ${e?.message ?? String(err)}${e?.cause ? ` (cause ${code}: ${e.cause.message ?? ""})` : ""}`;
  if (HANG_CODES.has(code)) return { kind: "hang", code, message };
  if (RESET_CODES.has(code)) return { kind: "reset", code, message };
  return { kind: "error", code, message };
}

/**
 * Sends a request with `doFetch` (given the abort signal of its time limit) and reads the
 * answer: an event stream is judged on its headers and cancelled, anything else read to the
 * end. A GET or HEAD reset before any answer is sent once more.
 * @param timeoutMs time for each attempt, headers and body together (ms).
 */
export async function sendJudged(method: string, doFetch: (signal: AbortSignal) => Promise<Response>, timeoutMs: number): Promise<SendResult> {
  const first = await attempt(doFetch, timeoutMs);
  if (first.failure?.kind !== "reset" || first.answered || !(method === "GET" || method === "HEAD")) return first.result;
  const second = await attempt(doFetch, timeoutMs);
  return { ...second.result, retriedAfter: first.failure };
}

async function attempt(doFetch: (signal: AbortSignal) => Promise<Response>, timeoutMs: number): Promise<{ result: SendResult; answered: boolean; failure?: TransportFailure }> {
  let res: Response | undefined;
  try {
    res = await doFetch(AbortSignal.timeout(timeoutMs));
    // Streams (SSE, run streams) are judged on their headers: never wait for their end.
    if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
      await res.body?.cancel();
      return { result: { status: res.status }, answered: true };
    }
    const text = await res.text();
    return { result: { status: res.status, ...(res.status >= 400 ? { body: text.slice(0, 2000) } : {}) }, answered: true };
  } catch (err) {
    const failure = classifyFailure(err, timeoutMs);
    // A failure after the status line arrived is reported with that status's request, but
    // as a failure: the body never came whole.
    return { result: { status: 0, failure }, answered: res !== undefined, failure };
  }
}
