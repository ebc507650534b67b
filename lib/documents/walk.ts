import { promises as fs } from "node:fs";
import path from "node:path";
import { RESERVED_SEGMENT } from "../tools/sandbox";

/** A regular file of a workspace, found without following any symlink. */
export interface WorkspaceFile {
  /** Path relative to the workspace root, `/` separated. */
  path: string;
  /** Absolute path on disk. */
  abs: string;
  sizeBytes: number;
}

/** Most entries walked in one workspace. */
export const MAX_WALK_ENTRIES = 20_000;

/**
 * The regular files of a workspace, depth first, sorted by name (docs/documents.md
 * "Download"): symlinks, devices, FIFOs and sockets are skipped, never followed, and the
 * reserved folder ({@link RESERVED_SEGMENT}, extracts and uploads in progress) is left out.
 * @param realRoot the real path of the workspace root.
 */
export async function workspaceFiles(realRoot: string): Promise<WorkspaceFile[]> {
  const out: WorkspaceFile[] = [];
  let seen = 0;
  async function walk(dir: string, rel: string): Promise<void> {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (++seen > MAX_WALK_ENTRIES) return;
      if (e.name.replace(/[.\s]+$/, "").toLowerCase() === RESERVED_SEGMENT) continue;
      const abs = path.join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(abs, relPath);
      else if (e.isFile()) {
        const st = await fs.lstat(abs);
        if (st.isFile()) out.push({ path: relPath, abs, sizeBytes: st.size });
      }
    }
  }
  await walk(realRoot, "");
  return out;
}
