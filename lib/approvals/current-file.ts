import "server-only";
import { constants, promises as fs } from "node:fs";
import { isAppError } from "../errors";
import { resolveInWorkspace } from "../tools/sandbox";
import { type CurrentFile, PREVIEW_MAX_BYTES } from "./preview-item";

/** O_NOFOLLOW where the platform has it: refuse a symlink swapped in after the sandbox check. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The state a file-system error stands for, as the file tools would report it; null for unexpected errors. */
function fsState(err: unknown, relPath: string): CurrentFile | null {
  const shown = JSON.stringify(relPath.length > 120 ? `${relPath.slice(0, 120)}…` : relPath);
  switch ((err as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOENT":
    case "ENOTDIR":
      return { state: "missing" };
    case "EISDIR":
      return { state: "directory" };
    case "ELOOP":
      return { state: "refused", message: `Path ${shown} is refused: it is a symlink.` };
    case "ENAMETOOLONG":
      return { state: "refused", message: `Path ${shown} is refused: a name in it is too long for the file system.` };
    case "EACCES":
    case "EPERM":
      return { state: "refused", message: `Permission denied: ${shown}.` };
    default:
      return null;
  }
}

/**
 * A workspace file as it is now, for the line diff of an approval that would write it. The
 * path goes through the same sandbox as the file tools (lib/tools/sandbox.ts): a path the
 * tool would refuse is reported as `refused` with the sandbox's message, never read.
 * Nothing is created: a thread whose workspace does not exist yet has no files (`missing`).
 * @param workspaceDir absolute path of the thread's workspace.
 * @param relPath workspace-relative path, as the tool call names it.
 * @param limitBytes largest file whose content is returned (default {@link PREVIEW_MAX_BYTES}).
 * @returns the file's state; text only when it is valid UTF-8 without NUL bytes.
 * @throws only unexpected I/O errors (EIO and the like), which the route answers with 500.
 */
export async function readCurrentFile(workspaceDir: string, relPath: string, limitBytes = PREVIEW_MAX_BYTES): Promise<CurrentFile> {
  let abs: string;
  try {
    abs = await resolveInWorkspace(workspaceDir, relPath);
  } catch (err) {
    if (isAppError(err) && err.reason === "workspace_missing") return { state: "missing" };
    if (isAppError(err)) return { state: "refused", message: err.message };
    const known = fsState(err, relPath);
    if (known) return known;
    throw err;
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(abs, constants.O_RDONLY | NOFOLLOW);
  } catch (err) {
    const known = fsState(err, relPath);
    if (known) return known;
    throw err;
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) return { state: "directory" };
    if (!st.isFile()) return { state: "refused", message: `Path ${JSON.stringify(relPath)} is refused: not a regular file.` };
    if (st.size > limitBytes) return { state: "too_large", sizeBytes: st.size, limitBytes };
    // Read at most one byte past the limit: the file may have grown since the stat.
    const buffer = Buffer.alloc(st.size + 1 > limitBytes ? limitBytes + 1 : st.size + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, 0);
    if (bytesRead > limitBytes) return { state: "too_large", sizeBytes: Math.max(st.size, bytesRead), limitBytes };
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { state: "binary", sizeBytes: bytes.byteLength };
    try {
      const content = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
      return { state: "text", content, sizeBytes: bytes.byteLength };
    } catch {
      return { state: "binary", sizeBytes: bytes.byteLength };
    }
  } finally {
    await handle.close();
  }
}
