import type { z } from "zod";
import { isAppError } from "../errors";
import { logger } from "../log";
import { withSpan } from "../telemetry";
import { canonicalHost } from "../net/open-hosts";
import { hasReference, hostAllowed, referencedNames, substitute, type UsedSecret, redactValues } from "../workspace-secrets/references";
import { builtinRegistry, type ToolRegistry } from "./registry";
import type { BlobReader, MemoryAccess, NetworkAccess, SecretAccess, ToolContext, ToolDefinition, ToolRunResult } from "./types";

/**
 * The tool gateway (docs/architecture.md#tools-and-mcp): the one way the engine runs a tool. It validates input and
 * output with the tool's zod schemas, enforces the timeout with an AbortController, turns
 * every failure into an error result (it never throws for a tool failure) and caps the
 * output text the agent sees. Every call is one log line ("tool call": tool, status,
 * durationMs, errorCode, with the run's ids) and, when tracing is on, one span
 * "tool <name>" under the run's span (docs/architecture.md#events-and-telemetry).
 *
 * Workspace secrets (docs/secrets.md) are swapped in here and nowhere else: after the input
 * is validated (and so after the risk gate and any approval, which saw the references), a
 * tool that declares `secretSlots` gets each `{{secret:NAME}}` replaced by its value, once
 * every named secret exists and allows the call's host; every value is put back as its
 * reference in what the tool answers, success or error, before anything else sees it.
 */

const log = logger.child({ module: "tool-gateway" });

/** Default cap on the output text, chars (docs/architecture.md#tools-and-mcp). */
export const DEFAULT_MAX_OUTPUT_CHARS = 200_000;

/** Options of {@link runTool} and {@link runToolDefinition}. */
export interface RunToolOptions {
  /** Absolute path of the thread's workspace (the sandbox root). */
  workspaceDir: string;
  /** The mounted workspace library's files (ToolContext.libraryDir); absent: none. */
  libraryDir?: string;
  /** Wall-clock limit, ms; the tool's own `timeoutMs` still applies when shorter. */
  timeoutMs?: number;
  /** Cap on the output text, chars (default {@link DEFAULT_MAX_OUTPUT_CHARS}). */
  maxOutputChars?: number;
  /** The thread's evicted outputs, for tools that read them back (`rehydrate`). */
  blobs?: BlobReader;
  /** The flow's network allowlist (`http_request`); absent means no network. */
  network?: NetworkAccess;
  /** The workspace memory bound to this call (`remember`, `recall`). */
  memory?: MemoryAccess;
  /** Where `runTool` looks tools up (default: the built-ins). */
  registry?: ToolRegistry;
  /** The call's key across its attempts (ToolContext.callKey). */
  callKey?: string;
  /** The workspace's secrets (docs/secrets.md); absent: a reference is refused. */
  secrets?: SecretAccess;
}

const TIMED_OUT = Symbol("timed out");

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "(input)"}: ${i.message}`).join("; ");
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? "";
}

/** Cuts `text` to `max` chars (not splitting a surrogate pair) and appends a marker. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n…[output truncated: showing ${end} of ${text.length} chars]`;
}

/**
 * Runs one tool definition through the gateway: input validation, timeout, output
 * validation, output cap. Exported so tests and future registries can run tools that are
 * not built in.
 * @returns a {@link ToolRunResult}; `errorCode` is "invalid_input", "timeout",
 *   "invalid_output", an AppError's `reason` (e.g. "sandbox_violation") or "tool_error".
 *   Never throws for a tool failure.
 */
export async function runToolDefinition(def: ToolDefinition, rawInput: unknown, opts: RunToolOptions): Promise<ToolRunResult> {
  return observed(def.name, () => runChecked(def, rawInput, opts));
}

/**
 * Runs one tool call inside its span and logs its outcome: status, duration (ms) and
 * error code as span attributes (an error result marks the span failed) and as one line.
 */
function observed(name: string, call: () => Promise<ToolRunResult>): Promise<ToolRunResult> {
  return withSpan(
    `tool ${name}`,
    { "tool.name": name },
    async () => {
      const result = await call();
      const line = { tool: name, status: result.status, durationMs: result.durationMs, errorCode: result.errorCode ?? null, sizeChars: result.sizeChars };
      if (result.status === "error") log.warn(line, "tool call failed");
      else log.info(line, "tool call");
      return result;
    },
    (r) => ({
      attributes: { "tool.status": r.status, "tool.duration_ms": r.durationMs, ...(r.errorCode ? { "tool.error_code": r.errorCode } : {}) },
      error: r.status === "error" ? (r.errorCode ?? "tool_error") : undefined,
    }),
  );
}

/** A refusal of {@link prepareSecrets}: the message people and models see, and its code. */
type SecretRefusal = { refused: string; code: string };

/**
 * Swaps the references of `input` for their values (see the module header).
 * @returns the input to run and the secrets it carries, or a refusal: "secret_not_allowed_here"
 *   (a reference outside the tool's slots), "secrets_unavailable" (no secrets here),
 *   "unknown_secret" (the workspace has no such name), "invalid_url", or
 *   "secret_host_not_allowed" (a secret does not name the call's host).
 */
async function prepareSecrets(def: ToolDefinition, input: unknown, secrets: SecretAccess | undefined): Promise<{ input: unknown; used: UsedSecret[]; hosts: Map<string, string[]> } | SecretRefusal> {
  const slots = def.secretSlots;
  const names: string[] = [];
  const rest = slots ? slots.fill(input, () => "") : input;
  if (hasReference(JSON.stringify(rest) ?? "")) {
    return {
      refused: `Secret references ({{secret:NAME}}) can only be used in the request headers of ${def.name}; they are not allowed in the URL, the query or the body. Move the secret into a header such as Authorization.`,
      code: "secret_not_allowed_here",
    };
  }
  if (!slots) return { input, used: [], hosts: new Map() };
  slots.fill(input, (text) => {
    for (const n of referencedNames(text)) if (!names.includes(n)) names.push(n);
    return text;
  });
  if (names.length === 0) return { input, used: [], hosts: new Map() };
  if (!secrets) return { refused: `This call refers to workspace secrets, which are not available here; ${def.name} ran without them.`, code: "secrets_unavailable" };
  const found = await secrets.resolve(names);
  const unknown = names.filter((n) => !found.has(n));
  if (unknown.length > 0) {
    return {
      refused: `No secret named ${unknown.join(", ")} in this workspace. A workspace owner adds secrets in Settings > Secrets; refer to one as {{secret:NAME}} with its exact name.`,
      code: "unknown_secret",
    };
  }
  let url: URL;
  try {
    url = new URL(slots.url(input));
  } catch {
    return { refused: `${JSON.stringify(slots.url(input).slice(0, 200))} is not an absolute URL; write it like https://api.example.com/path.`, code: "invalid_url" };
  }
  const host = canonicalHost(url);
  // As people write it: with the port when the URL names one (two servers of one host differ by it).
  const shownHost = url.port === "" ? host : `${host}:${url.port}`;
  const hosts = new Map<string, string[]>();
  for (const name of names) {
    const secret = found.get(name);
    if (!secret) continue;
    hosts.set(name, secret.hosts);
    if (!hostAllowed(secret.hosts, url)) {
      const where = secret.hosts.length > 0 ? secret.hosts.join(", ") : "no host";
      return { refused: `Secret ${name} may only be sent to ${where}; this call goes to ${shownHost}. The call was not made.`, code: "secret_host_not_allowed" };
    }
  }
  const values = new Map(names.map((n) => [n, found.get(n)?.value ?? ""]));
  await secrets.used(names, host);
  return { input: slots.fill(input, (text) => substitute(text, values)), used: names.map((name) => ({ name, value: values.get(name) ?? "" })), hosts };
}

async function runChecked(def: ToolDefinition, rawInput: unknown, opts: RunToolOptions): Promise<ToolRunResult> {
  const started = performance.now();
  const maxChars = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  let used: UsedSecret[] = [];
  const finish = (status: ToolRunResult["status"], value: unknown, errorCode?: string): ToolRunResult => {
    // A value a call carried never leaves the gateway: every occurrence goes back to its reference.
    const text = redactValues(stringify(value), used);
    return {
      status,
      output: cap(text, maxChars),
      sizeChars: text.length,
      ...(errorCode ? { errorCode } : {}),
      durationMs: Math.round(performance.now() - started),
    };
  };

  const parsed = def.input.safeParse(rawInput);
  if (!parsed.success) return finish("error", `Invalid input for tool "${def.name}": ${describeIssues(parsed.error)}`, "invalid_input");
  let prepared: Awaited<ReturnType<typeof prepareSecrets>>;
  try {
    prepared = await prepareSecrets(def, parsed.data, opts.secrets);
  } catch (err) {
    return finish("error", `The workspace secrets of this call could not be read: ${err instanceof Error ? err.message : String(err)}`, isAppError(err) ? err.reason : "tool_error");
  }
  if ("refused" in prepared) return finish("error", prepared.refused, prepared.code);
  used = prepared.used;
  const carried = prepared.hosts;

  // setTimeout fires at once past 2^31-1 ms, so clamp there.
  const timeoutMs = Math.min(def.timeoutMs, opts.timeoutMs ?? Number.POSITIVE_INFINITY, 2_147_483_647);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`tool "${def.name}" timed out after ${timeoutMs} ms`));
      resolve(TIMED_OUT);
    }, timeoutMs);
  });

  let result: unknown;
  try {
    // Only these capabilities reach a tool: never the engine, agents or policies (docs/architecture.md#tools-and-mcp).
    const ctx: ToolContext = {
      workspaceDir: opts.workspaceDir,
      ...(opts.libraryDir ? { libraryDir: opts.libraryDir } : {}),
      signal: controller.signal,
      ...(opts.blobs ? { blobs: opts.blobs } : {}),
      ...(opts.network ? { network: opts.network } : {}),
      ...(opts.memory ? { memory: opts.memory } : {}),
      ...(opts.callKey ? { callKey: opts.callKey } : {}),
      ...(used.length > 0 ? { secrets: { values: used.map((u) => u.value), allowed: (url: URL) => [...carried.values()].every((hosts) => hostAllowed(hosts, url)) } } : {}),
    };
    const input = prepared.input;
    const running = Promise.resolve().then(() => def.run(input, ctx));
    running.catch(() => {}); // a tool that fails after its timeout must not be an unhandled rejection
    result = await Promise.race([running, timeout]);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replaceAll(opts.workspaceDir, "<workspace>");
    const shown = opts.libraryDir ? message.replaceAll(opts.libraryDir, "<library>") : message;
    if (isAppError(err)) return finish("error", shown, err.reason);
    return finish("error", `Tool "${def.name}" failed: ${shown}`, "tool_error");
  } finally {
    clearTimeout(timer);
  }
  if (result === TIMED_OUT) return finish("error", `Tool "${def.name}" timed out after ${timeoutMs} ms.`, "timeout");

  const checked = def.output.safeParse(result);
  if (!checked.success) return finish("error", `Tool "${def.name}" returned invalid output: ${describeIssues(checked.error)}`, "invalid_output");
  return finish("success", checked.data);
}

/**
 * What to do with a call whose outcome is unknown after a crash (docs/durability.md "Side
 * effects"), without asking a person when the system can tell:
 * - `happened`: the tool observes that it took effect; `output` is what it would have returned;
 * - `retry`: it observes that it did not (`not_happened`), or it is idempotent for this input
 *   (`idempotent`): running it now is safe;
 * - `ask`: neither (an unknown tool, an input it refuses, an observation that fails).
 */
export type Reconciliation = { kind: "happened"; output: string } | { kind: "retry"; why: "not_happened" | "idempotent" } | { kind: "ask" };

/** How long an observation may take, ms. */
const OBSERVE_TIMEOUT_MS = 10_000;

/**
 * Reconciles a call whose outcome is unknown (see {@link Reconciliation}): the tool's own
 * observation first, then its idempotency. Never throws.
 */
export async function reconcileTool(name: string, rawInput: unknown, opts: RunToolOptions): Promise<Reconciliation> {
  const def = (opts.registry ?? builtinRegistry).get(name);
  if (!def) return { kind: "ask" };
  const parsed = def.input.safeParse(rawInput);
  if (!parsed.success) return { kind: "ask" };
  if (def.observe) {
    try {
      const ctx: ToolContext = {
        workspaceDir: opts.workspaceDir,
        ...(opts.libraryDir ? { libraryDir: opts.libraryDir } : {}),
        signal: AbortSignal.timeout(OBSERVE_TIMEOUT_MS),
        ...(opts.callKey ? { callKey: opts.callKey } : {}),
      };
      const seen = await def.observe(parsed.data, ctx);
      if (seen?.happened) return { kind: "happened", output: cap(stringify(seen.output), opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS) };
      if (seen && !seen.happened) return { kind: "retry", why: "not_happened" };
    } catch (err) {
      log.warn({ tool: name, err }, "observing a call whose outcome is unknown failed");
    }
  }
  return def.idempotent?.(parsed.data) ? { kind: "retry", why: "idempotent" } : { kind: "ask" };
}

/**
 * Runs the tool `name` of `opts.registry` (default: the built-ins) with untrusted `rawInput` (typically an LLM's tool call)
 * inside `opts.workspaceDir` (docs/architecture.md#tools-and-mcp).
 * @returns an error result with errorCode "unknown_tool" when no such tool exists;
 *   otherwise as {@link runToolDefinition}. Never throws for a tool failure.
 */
export async function runTool(name: string, rawInput: unknown, opts: RunToolOptions): Promise<ToolRunResult> {
  const def = (opts.registry ?? builtinRegistry).get(name);
  if (!def) {
    const output = `Unknown tool "${name}".`;
    return observed(name, async () => ({ status: "error", output, sizeChars: output.length, errorCode: "unknown_tool", durationMs: 0 }));
  }
  return runToolDefinition(def, rawInput, opts);
}
