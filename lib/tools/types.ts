import type { z } from "zod";

/** Permission level a tool needs (security context). */
export type PermissionLevel = "user" | "admin" | "system";

/**
 * What a running tool may see: its sandbox directory and an abort signal. Tools never get
 * the engine, agents or policies (docs/architecture.md#tools-and-mcp).
 */
export interface ToolContext {
  /** Absolute path of the thread's workspace directory (the sandbox root). */
  workspaceDir: string;
  /**
   * Absolute path of the workspace library's files when the flow mounts it (docs/library.md):
   * the read-only lower layer under `workspaceDir`. Absent: no library.
   */
  libraryDir?: string;
  /** Aborted when the gateway's timeout fires. */
  signal: AbortSignal;
  /** Read access to this thread's evicted outputs (for `rehydrate`); absent outside runs. */
  blobs?: BlobReader;
  /** The flow's network allowlist (docs/architecture.md#tools-and-mcp); absent means no network at all. */
  network?: NetworkAccess;
  /** The workspace's long-term memory as tools may use it (`remember`, `recall`); absent outside runs. */
  memory?: MemoryAccess;
  /**
   * A key that stays the same across every attempt of one tool call (its thread and call id,
   * hashed: 32 hex chars), e.g. the `Idempotency-Key` of `http_request`; absent outside runs.
   */
  callKey?: string;
  /**
   * The workspace secrets this call carries (docs/secrets.md), set by the gateway when it
   * swapped references for values: the values, and whether a URL is one all of them may be
   * sent to. A tool that follows a redirect to another host drops every header holding a
   * value unless `allowed` says yes.
   */
  secrets?: { values: readonly string[]; allowed(url: URL): boolean };
}

/**
 * The workspace's secrets as the tool gateway reaches them (docs/secrets.md), bound by the
 * engine to the run's workspace and thread; values never leave the gateway.
 */
export interface SecretAccess {
  /**
   * The value and host entries of each named secret the workspace has; a name it has not is
   * missing from the map.
   * @throws AppError internal ("secret_unreadable") when a value cannot be opened.
   */
  resolve(names: readonly string[]): Promise<Map<string, { value: string; hosts: string[] }>>;
  /** Records that a call is sending the named secrets to `host` (last use, the thread's audit trail). */
  used(names: readonly string[], host: string): Promise<void>;
}

/**
 * Where a tool takes `{{secret:NAME}}` references (docs/secrets.md): the gateway refuses a
 * reference anywhere else in the input, resolves the names, checks `url`'s host against each
 * secret's hosts, and runs the tool on `fill(input, substitute)`.
 */
export interface SecretSlots<I> {
  /** The URL the call sends to (its host is checked). */
  url(input: I): string;
  /** The input with `map` applied to every string that may hold a reference. */
  fill(input: I, map: (text: string) => string): I;
}

/**
 * What the world shows of a call whose outcome is unknown after a crash
 * (docs/durability.md "Side effects"): it happened (with the output the tool would have
 * returned), or it did not (running it now does it once).
 */
export type Observation<O = unknown> = { happened: true; output: O } | { happened: false };

/**
 * Network access a tool gets (off unless the flow's allowlist names the host).
 * `allowHosts` entries are `host`, `*.domain` or `host:port`; a host without a port allows
 * ports 80 and 443 only.
 */
export interface NetworkAccess {
  allowHosts: readonly string[];
  methods: readonly ("GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE")[];
  /** Largest response body read, bytes. */
  maxResponseBytes: number;
  /** Wall-clock limit of one request, ms. */
  timeoutMs: number;
}

/** A long-term fact as tools see it (docs/architecture.md#memory). */
export interface RecalledFact {
  id: string;
  content: string;
  tags: string[];
  /** Relevance, higher is better (lexical and/or semantic, merged). */
  score: number;
  /** Where the fact came from: thread and step, when known. */
  source: { threadId: string | null; stepId: string | null };
}

/**
 * The workspace's memory, bound by the engine to the calling thread, step and agent, so a
 * tool cannot name another workspace (tenant isolation: docs/architecture.md#memory).
 */
export interface MemoryAccess {
  /** upsert_fact: stores (or merges) a fact with this call's thread and step as its source. */
  remember(input: { content: string; tags: string[] }): Promise<{ id: string; created: boolean }>;
  /** search: the workspace's accepted facts most relevant to `query`, best first. */
  recall(input: { query: string; limit: number; tags?: string[] }): Promise<RecalledFact[]>;
}

/** Reads one of the thread's evicted tool outputs by pointer (`blob:<id>`). */
export interface BlobReader {
  read(pointer: string): Promise<{ content: string; sizeChars: number } | null>;
}

/**
 * A declared tool (docs/architecture.md#tools-and-mcp): name, version, description, input/output zod schemas,
 * timeout (ms), permission level and side-effect flag.
 */
export interface ToolDefinition<I = unknown, O = unknown> {
  name: string;
  version: string;
  description: string;
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  /** Wall-clock limit, ms (30 s default). */
  timeoutMs: number;
  permission: PermissionLevel;
  sideEffect: boolean;
  /**
   * True when running the tool twice with this input has the effect of running it once, as
   * RFC 9110 section 9.2.2 defines it for HTTP methods: a call whose outcome is unknown
   * after a crash is then run again without asking a person (docs/durability.md "Side
   * effects"). Absent: not idempotent.
   */
  idempotent?(input: I): boolean;
  /**
   * Looks at the world for a call whose outcome is unknown after a crash, without changing
   * it: null when it cannot tell. Absent: the tool cannot tell.
   */
  observe?(input: I, ctx: ToolContext): Promise<Observation<O> | null>;
  /** Where the tool takes secret references; absent: none (a reference is plain text to it). */
  secretSlots?: SecretSlots<I>;
  run(input: I, ctx: ToolContext): Promise<O>;
}

/** What the gateway returns for one call; `output` is the text the agent sees. */
export interface ToolRunResult {
  status: "success" | "error";
  /** Output as text (JSON-stringified when the tool returned an object), capped in size. */
  output: string;
  /** Original output length in chars, before any cap. */
  sizeChars: number;
  /** Machine code of the failure when status is "error" (e.g. "sandbox_violation"). */
  errorCode?: string;
  durationMs: number;
}

/** What the editor's palette and inspector show of a tool: its declaration, schema as JSON Schema. */
export interface ToolCatalogEntry {
  name: string;
  version: string;
  description: string;
  sideEffect: boolean;
  permission: PermissionLevel;
  /** Wall-clock limit, ms. */
  timeoutMs: number;
  /** The input schema as JSON Schema (draft 2020-12), for display. */
  inputSchema: unknown;
  /** "builtin", or "mcp:<server name>" for a workspace's MCP server. */
  source: string;
}
