import { promises as fs } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";

/**
 * Per-thread workspaces (docs/architecture.md#tools-and-mcp): each thread gets its own directory under a base dir,
 * seeded once from `templates/workspace-files/`.
 */

const THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Seed files copied into every new workspace, resolved against the process's cwd. */
function seedDir(): string {
  return path.join(process.cwd(), "templates", "workspace-files");
}

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

/** Copies regular files and folders from `from` into `to`; symlinks and special files are skipped. */
async function copySeed(from: string, to: string): Promise<void> {
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await fs.mkdir(dest, { recursive: true, mode: 0o700 });
      await copySeed(src, dest);
    } else if (entry.isFile()) {
      await fs.copyFile(src, dest, fs.constants.COPYFILE_EXCL);
      await fs.chmod(dest, 0o600);
    }
  }
}

/**
 * Creates the thread's workspace if needed and returns its absolute path. Only a workspace
 * this call created is seeded with the files of `templates/workspace-files/` (none when that
 * folder is missing), so later calls never overwrite what the agent or user changed. The
 * seed is copied into a private folder beside it and renamed into place in one step, so a
 * call running at the same time (steps run side by side) never sees a half-seeded workspace.
 * @throws AppError bad_request / "invalid_thread_id" (see {@link workspaceDirFor});
 *   AppError internal / "workspace_unavailable" when the path exists but is not a directory.
 */
export async function ensureWorkspace(baseDir: string, threadId: string): Promise<string> {
  const dir = workspaceDirFor(baseDir, threadId);
  // Owner-only (docs/security.md "Secrets at rest"): a workspace holds a tenant's files.
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  if (await existingDir(dir, threadId)) return dir;
  // A name no thread id can have (ids never contain "."), so it is never served as a workspace.
  const staging = await fs.mkdtemp(path.join(path.dirname(dir), `.seed.${threadId}.`));
  try {
    await fs.chmod(staging, 0o700);
    try {
      await copySeed(seedDir(), staging);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    await fs.rename(staging, dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Another call put the workspace in place first: theirs stands.
    if (code !== "ENOTEMPTY" && code !== "EEXIST" && code !== "EISDIR") throw err;
    if (!(await existingDir(dir, threadId))) throw err;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
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
