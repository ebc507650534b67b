/**
 * Next.js instrumentation: runs once when a server process starts. Starts the approval
 * expiry sweeper (issue 4) so that runs are told about expired challenges even when
 * nobody opens a page.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { db } = await import("./lib/db/client");
  const { startExpirySweeper } = await import("./lib/engine/expiry-sweeper");
  startExpirySweeper(db());
}
