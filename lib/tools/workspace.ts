import { promises as fs } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";

/**
 * Per-thread workspaces (docs/architecture.md#tools-and-mcp): each thread gets its own directory
 * under a base dir. A new workspace starts empty: the files a thread sees besides its own come
 * from uploads and the mounted workspace library (docs/library.md), never from a seed.
 */

const THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The absolute workspace directory of a thread: `<baseDir>/<threadId>`.
 * @param baseDir directory holding all workspaces (relative paths resolve against cwd).
 * @param threadId 1-64 chars of letters, digits, `_` and `-`, so it can never name another path.
 * @throws AppError bad_request / "invalid_thread_id" for any other thread id.
 */
export function workspaceDirFor(baseDir: string, threadId: string): string {
  if (typeof threadId !== "string" || !THREAD_ID.test(threadId)) {
    throw new AppError("bad_request", "invalid_thread_id", "Thread id must be 1-64 letters, digits, '_' or '-'.");
  }
  return path.join(path.resolve(baseDir), threadId);
}

/**
 * Creates the thread's workspace (empty, owner-only) if needed and returns its absolute path.
 * Nothing is copied into it (docs/library.md "The demo workspace's library"): calls at the
 * same time (steps run side by side) all get the same folder, and a later call never touches
 * what the agent or user put there.
 * @throws AppError bad_request / "invalid_thread_id" (see {@link workspaceDirFor});
 *   AppError internal / "workspace_unavailable" when the path exists but is not a directory.
 */
export async function ensureWorkspace(baseDir: string, threadId: string): Promise<string> {
  const dir = workspaceDirFor(baseDir, threadId);
  // Owner-only (docs/security.md "Secrets at rest"): a workspace holds a tenant's files.
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  if (await existingDir(dir, threadId)) return dir;
  try {
    await fs.mkdir(dir, { mode: 0o700 });
  } catch (err) {
    // Another call made it first: theirs stands.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST" || !(await existingDir(dir, threadId))) throw err;
  }
  return dir;
}

/** True when the workspace exists as a directory; false when it does not exist. */
async function existingDir(dir: string, threadId: string): Promise<boolean> {
  try {
    if ((await fs.stat(dir)).isDirectory()) return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
  throw new AppError("internal", "workspace_unavailable", `Workspace path for thread ${threadId} is not a directory.`);
}
