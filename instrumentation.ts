/**
 * Next.js instrumentation: runs once when a server process starts. Makes the database,
 * secrets and workspaces owner-only and sets an owner-only umask, then starts OpenTelemetry
 * tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (lib/telemetry.ts), then
 * the approval expiry sweeper so that runs are told about expired challenges
 * even when nobody opens a page, and the memory sweeper and after-run hooks.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Owner-only files from the first line on (docs/security.md "Secrets at rest").
  const { env } = await import("./lib/env");
  const { securePrivateFiles } = await import("./lib/private-files");
  const settings = env();
  securePrivateFiles({ databaseUrl: settings.DATABASE_URL, secretsDir: settings.SECRETS_DIR, workspacesDir: settings.WORKSPACES_DIR });
  const { startTelemetry } = await import("./lib/telemetry");
  const { logger } = await import("./lib/log");
  if (await startTelemetry()) logger.info({ module: "telemetry" }, "exporting traces over OTLP/HTTP");
  const { db } = await import("./lib/db/client");
  // Runs are jobs: this process executes RUN_WORKERS of them at once, with the sweepers and
  // memory hooks that go with them (none when RUN_WORKERS=0: separate `npm run worker`s do;
  // with RUN_IN=process, as `npm start` sets, a worker child it forks does: lib/runs/worker-child.ts).
  const { startBackgroundWork } = await import("./lib/runs/background");
  await startBackgroundWork(db());
}
