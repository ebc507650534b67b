import { z } from "zod";
import { StdioCatalogueSetting } from "./mcp/stdio-catalogue";
import { parseNamedProviders } from "./models/named-providers";
import { parseOpenHostList } from "./net/open-hosts";
import { RetentionHours } from "./db/prune-retention";

/**
 * Environment, read once and validated (STYLE.md rule 14). Every setting has a default
 * that runs the embedded configuration: a SQLite file under `.data/`, the offline model.
 */
const EnvSchema = z.object({
  DATABASE_URL: z.string().default("file:./.data/phylactery.db"),
  /** Directory holding one workspace directory per thread (file tools' sandbox). */
  WORKSPACES_DIR: z.string().default("./.data/workspaces"),
  /** Directory for server secrets (the approval HMAC key) when not given by env. */
  SECRETS_DIR: z.string().default("./.data"),
  /** HMAC key for approval challenges (>= 32 chars). Generated and persisted when unset. */
  APPROVAL_SECRET: z.string().min(32).optional(),
  /** Lifetime of an approval challenge in ms (SPEC.md 4: 15 minutes). */
  APPROVAL_TTL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60 * 1000),
  /** How often the server looks for expired approvals to tell their runs, ms (issue 4). */
  APPROVAL_SWEEP_MS: z.coerce.number().int().min(200).default(5_000),
  DEMO_EMAIL: z.string().email().default("demo@phylactery.dev"),
  DEMO_PASSWORD: z.string().min(8).default("phylactery"),
  /** Seeded approver of the demo workspace (issue 4 roles); same password as the demo account. */
  DEMO_APPROVER_EMAIL: z.string().email().default("approver@phylactery.dev"),
  /** Seeded viewer of the demo workspace (issue 4 roles); same password as the demo account. */
  DEMO_VIEWER_EMAIL: z.string().email().default("viewer@phylactery.dev"),
  /**
   * Instance admins (docs/security.md "Roles and powers"): comma-separated emails, compared
   * lower-case. Unset: the first account created is the admin.
   */
  ADMIN_EMAILS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().email("ADMIN_EMAILS: each entry must be an email")).min(1, "ADMIN_EMAILS: list at least one email, or unset it"))
    .optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().default("gpt-4.1-mini"),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_MODEL: z.string().default("claude-sonnet-4-5"),
  OPENAI_COMPATIBLE_BASE_URL: z.string().url().optional(),
  OPENAI_COMPATIBLE_MODEL: z.string().optional(),
  OPENAI_COMPATIBLE_API_KEY: z.string().optional(),
  /**
   * More OpenAI-compatible servers, each under its own provider name (docs/models.md
   * "Local servers"): comma-separated `name=baseUrl`, e.g.
   * `ollama=http://127.0.0.1:11434/v1,vllm=http://10.0.0.5:8000/v1`; flows address them as
   * `ollama:llama3.1`. Set by the operator, so their hosts count as opened (like
   * OPENAI_COMPATIBLE_BASE_URL).
   */
  OPENAI_COMPATIBLE_PROVIDERS: z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      const bad = parseNamedProviders(v).invalid;
      if (bad.length > 0) ctx.addIssue({ code: "custom", message: `OPENAI_COMPATIBLE_PROVIDERS: ${bad.map((e) => JSON.stringify(e)).join(", ")} is not name=http(s)://host/path` });
    }),
  /**
   * Embedding model for semantic memory search (SPEC.md 6), spoken to with the OpenAI
   * embeddings protocol at EMBEDDING_BASE_URL. Without both, memory search is lexical only.
   */
  EMBEDDING_BASE_URL: z.string().url().optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  /**
   * Hosts the operator opens to private addresses for outbound requests (docs/security.md
   * "Outbound requests"): comma-separated `host` or `host:port`, e.g.
   * `127.0.0.1:11434,ollama.internal`. Default empty: tenants reach public addresses only.
   */
  OUTBOUND_ALLOW_PRIVATE: z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      const { invalid } = parseOpenHostList(v);
      if (invalid.length > 0) ctx.addIssue({ code: "custom", message: `OUTBOUND_ALLOW_PRIVATE: ${invalid.map((e) => JSON.stringify(e)).join(", ")} is not a host or host:port` });
    }),
  /**
   * Stdio MCP commands a workspace owner may pick by name (docs/security.md "Stdio MCP
   * servers"): JSON, name -> { argv, values?, env?, timeoutMs?, maxMessageBytes?,
   * maxOutputBytes?, description? } (lib/mcp/stdio-catalogue.ts). Unset: stdio MCP is off.
   */
  MCP_STDIO_COMMANDS: StdioCatalogueSetting.optional(),
  /**
   * Worker threads that run run_javascript scripts, i.e. scripts running at once per process
   * (docs/security.md "CPU isolation"). Default: one less than the CPU cores (at least 1), so
   * one core always stays free for the server's event loop.
   */
  JS_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * The offline model's pause between two streamed words, ms (docs/runs.md "Streaming"), so
   * its answers appear word by word as a real model's would; one answer's pauses add up to at
   * most 50 of them (500 ms at the default). 0 streams at once.
   */
  OFFLINE_STREAM_WORD_MS: z.coerce.number().int().min(0).max(1_000).default(10),
  /** How often expired short-term memory is purged, ms (SPEC.md 6 TTL sweeper). */
  MEMORY_SWEEP_MS: z.coerce.number().int().min(200).default(60_000),
  /**
   * Run slots this process executes at once (docs/durability.md#runs-are-jobs): the web
   * process's in-process worker on the embedded default, or `npm run worker`. 0 in a web
   * instance: it accepts runs and streams them, and separate workers execute them.
   */
  RUN_WORKERS: z.coerce.number().int().min(0).max(256).default(4),
  /**
   * Where a web process's RUN_WORKERS slots execute runs (docs/durability.md#runs-are-jobs):
   * `process`, in a worker child it forks and restarts (lib/runs/worker-child.ts), so that
   * pages and streams never wait on graph execution (`npm start` sets it); `web`, on its own
   * event loop (`next start` and `next dev` alone, tests). `npm run worker` ignores it.
   */
  RUN_IN: z.enum(["process", "web"]).default("web"),
  /**
   * How long a worker's claim on a run lasts without a heartbeat, ms (docs/durability.md#the-lease):
   * a run whose worker died is continued by another worker this long after its last heartbeat.
   * Every worker of a deployment must use the same value. Tests shorten it.
   */
  RUN_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  /** Admission: runs waiting for a worker, across the deployment, beyond which new ones get 429. */
  MAX_QUEUED_RUNS: z.coerce.number().int().min(1).default(5_000),
  /** Admission: runs one user may have queued or executing at once, beyond which they get 429. */
  MAX_ACTIVE_RUNS_PER_USER: z.coerce.number().int().min(1).default(500),
  /**
   * How long after a thread's last run ended its checkpoints are pruned to its history of
   * states, in hours, or `off` (docs/storage.md "Retention"). 0 = at the sweeper's next pass.
   */
  CHECKPOINT_RETENTION_HOURS: RetentionHours,
  /** How often the checkpoint pruning sweeper looks for threads past retention, ms. */
  CHECKPOINT_PRUNE_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(10 * 60_000),
  /**
   * Base delay of webhook retries, ms (docs/webhooks.md "Retries"): attempts 2 to 6 come
   * 1, 6, 24, 120 and 720 times this after a failure (5 s to 1 h by default). Tests shorten it.
   */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  /**
   * The address people open this app at, e.g. `https://phylactery.example.com` (no trailing
   * path), for links that leave the app: the `url` of a webhook payload (docs/webhooks.md
   * "Payloads"). Unset: payloads carry only the path.
   */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Uploads into a thread's workspace (docs/documents.md "Limits"): the largest file, bytes
   * (default 10 MB); the most bytes one workspace may hold, bytes (default 50 MB); the most
   * files one workspace may hold (default 200).
   */
  UPLOAD_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1_048_576),
  UPLOAD_MAX_WORKSPACE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1_048_576),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).default(200),
  /** Wall-clock limit of extracting the text of one PDF or DOCX, ms (docs/documents.md "Extraction"). */
  EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** Log level of the structured logs (pino levels). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** OTLP/HTTP endpoint (e.g. http://127.0.0.1:4318); when set, traces are exported there. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().default("phylactery"),
});

/** Parsed environment. */
export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

/**
 * Returns the validated environment (parsed on first call).
 * @throws ZodError naming the variable when a value is malformed.
 */
export function env(): Env {
  if (!cached) {
    const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
    cached = EnvSchema.parse(raw);
  }
  return cached;
}

/** Forgets the parsed environment, so the next {@link env} call reads `process.env` again (tests). */
export function resetEnvForTests(): void {
  cached = undefined;
}
