/**
 * Next.js instrumentation: runs once when a server process starts. Starts OpenTelemetry
 * tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (lib/telemetry.ts; SPEC.md 7), then
 * the approval expiry sweeper (issue 4) so that runs are told about expired challenges
 * even when nobody opens a page, and the memory sweeper and after-run hooks (issue 6).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTelemetry } = await import("./lib/telemetry");
  const { logger } = await import("./lib/log");
  if (await startTelemetry()) logger.info({ module: "telemetry" }, "exporting traces over OTLP/HTTP");
  const { db } = await import("./lib/db/client");
  const { startExpirySweeper } = await import("./lib/engine/expiry-sweeper");
  startExpirySweeper(db());
  // Memory (SPEC.md 6): purge expired short-term entries; summarize and propose facts when a run completes.
  const { startMemorySweeper } = await import("./lib/memory/sweeper");
  startMemorySweeper(db());
  const { installMemoryHooks } = await import("./lib/engine/memory-binding");
  installMemoryHooks(db(), (err, threadId) => logger.error({ err, threadId }, "memory: summarize or promote after a run failed"));
}
