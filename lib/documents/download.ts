import { constants, promises as fs } from "node:fs";
import { Zip, ZipDeflate } from "fflate";
import { AppError, isAppError } from "../errors";
import { realWorkspaceRoot, resolveInWorkspace, toWorkspacePath } from "../tools/sandbox";
import { detectType } from "./detect";
import { MAX_DOCUMENT_BYTES } from "./readable";
import { workspaceFiles } from "./walk";

/**
 * Downloads from a thread's workspace (docs/documents.md "Download"): one file's original
 * bytes, or every file as a zip streamed with fflate.
 */

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** One file to send. */
export interface Original {
  /** Workspace path, `/` separated. */
  path: string;
  bytes: Buffer;
  /** Media type from the content (application/octet-stream when not one of the known types). */
  contentType: string;
}

/**
 * The original bytes of one workspace file; with `libraryDir` (the mounted workspace library,
 * docs/library.md "Mounting"), the library's file when the thread has none of that name.
 * @throws AppError forbidden "sandbox_violation" (the sandbox's rules, the reserved folder
 *   included); not_found "not_found"; bad_request "is_a_directory"; unprocessable "file_too_large".
 */
export async function readOriginal(workspaceDir: string, relPath: string, libraryDir?: string): Promise<Original> {
  if (libraryDir) {
    try {
      return await readOriginal(workspaceDir, relPath);
    } catch (err) {
      if (!isAppError(err) || err.reason !== "not_found") throw err;
      try {
        return await readOriginal(libraryDir, relPath);
      } catch (lowerErr) {
        // Neither has it (or no library folder yet): the thread's answer stands.
        if (isAppError(lowerErr) && (lowerErr.reason === "not_found" || lowerErr.reason === "workspace_missing")) throw err;
        throw lowerErr;
      }
    }
  }
  const abs = await resolveInWorkspace(workspaceDir, relPath, { mustExist: true });
  const root = await realWorkspaceRoot(workspaceDir);
  const handle = await fs.open(abs, constants.O_RDONLY | NOFOLLOW);
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new AppError("bad_request", "is_a_directory", `${JSON.stringify(relPath)} is a folder; download the workspace as a zip instead.`);
    if (!st.isFile()) throw new AppError("forbidden", "sandbox_violation", `Path ${JSON.stringify(relPath)} is refused: not a regular file.`);
    if (st.size > MAX_DOCUMENT_BYTES) throw new AppError("unprocessable", "file_too_large", `${JSON.stringify(relPath)} is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
    const bytes = await handle.readFile();
    let contentType = "application/octet-stream";
    try {
      contentType = (await detectType(bytes, "path", relPath)).mime;
    } catch {
      // Not one of the accepted types (a file the agent wrote): sent as bytes.
    }
    return { path: toWorkspacePath(root, abs), bytes, contentType };
  } finally {
    await handle.close();
  }
}

/**
 * Every regular file of the workspace as a zip (DEFLATE), streamed: files are read one at a
 * time, without following symlinks, and the reserved folder (extracts) is left out. With
 * `libraryDir` (the mounted workspace library, docs/library.md), the library's files the
 * thread has no file of that name for are added too, as the thread's tools see them.
 * @returns a byte stream of the zip; a file that vanishes meanwhile is skipped.
 */
export async function zipWorkspace(workspaceDir: string, libraryDir?: string): Promise<ReadableStream<Uint8Array>> {
  const root = await realWorkspaceRoot(workspaceDir);
  const files = await workspaceFiles(root);
  const lower = libraryDir ? await libraryFiles(libraryDir) : [];
  const own = new Set(files.map((f) => f.path));
  files.push(...lower.filter((f) => !own.has(f.path)));
  let zip: Zip;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) {
          controller.error(err);
          return;
        }
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      try {
        for (const f of files) {
          let bytes: Buffer;
          try {
            const handle = await fs.open(f.abs, constants.O_RDONLY | NOFOLLOW);
            try {
              if (!(await handle.stat()).isFile()) continue;
              bytes = await handle.readFile();
            } finally {
              await handle.close();
            }
          } catch {
            continue;
          }
          const entry = new ZipDeflate(f.path, { level: 6 });
          zip.add(entry);
          entry.push(bytes, true);
        }
        zip.end();
      } catch (err) {
        controller.error(err);
      }
    },
    cancel() {
      zip?.terminate();
    },
  });
}

/** The library's files ({@link workspaceFiles}), none when its folder does not exist yet. */
async function libraryFiles(libraryDir: string) {
  try {
    return await workspaceFiles(await realWorkspaceRoot(libraryDir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || (isAppError(err) && err.reason === "workspace_missing")) return [];
    throw err;
  }
}
