import "server-only";
import type { Caller } from "../auth/membership";
import type { Db } from "../db/client";
import { workspaceToolRegistry } from "../tools/workspace-registry";
import { workspaceDirFor } from "../tools/workspace";
import { AppError } from "../errors";
import { mountedLibraryDir } from "../library/mount";
import { readCurrentFile } from "./current-file";
import { fileWriteOf, writesFile } from "./file-write";
import { getApproval } from "./inbox";
import type { ApprovalPreview } from "./preview-item";

/** Canonical argument text as a value; null when it does not parse. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * What an approver needs beside the arguments to judge a call: the tool's input schema
 * (the edit form's fields) and, for a file write, the file as it is now in the thread's
 * workspace, or in the mounted library when the thread has no file of that name (the file the
 * write would replace for the thread; docs/library.md "Mounting") (the line diff). Whoever may see the approval may see its preview: a member of
 * the thread's workspace, the same rule as the inbox and the thread's own workspace files
 * (docs/security.md "Membership"); anyone else gets 404.
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @param input.workspacesDir the directory holding every thread's workspace (WORKSPACES_DIR).
 * @param input.path another path to look at instead of the proposed one (an approver editing
 *   the path sees the diff against that file); only for tools that write a file.
 * @returns the preview; the current file is read with {@link readCurrentFile}'s limits.
 * @throws AppError not_found ("approval_not_found") for approvals the user may not see;
 *   AppError unprocessable ("not_a_file_write") when `path` is given for a tool that
 *   writes no file.
 */
export async function approvalPreview(db: Db, userId: Caller, input: { approvalId: string; workspacesDir: string; path?: string }): Promise<ApprovalPreview> {
  const item = await getApproval(db, userId, input.approvalId);
  if (input.path !== undefined && !writesFile(item.toolName)) {
    throw new AppError("unprocessable", "not_a_file_write", `path: ${item.toolName} writes no file, so there is no file to preview; leave path out.`);
  }
  const registry = await workspaceToolRegistry(db, item.workspaceId, [item.toolName]);
  const entry = registry.get(item.toolName) ? registry.catalog().find((t) => t.name === item.toolName) : undefined;
  const schema = entry?.inputSchema;
  const inputSchema = typeof schema === "object" && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>) : null;
  const path = input.path ?? fileWriteOf(item.toolName, parsed(item.canonicalArgs))?.path;
  const file = path === undefined ? null : { path, current: await currentFile(db, input.workspacesDir, item.threadId, path) };
  return { approvalId: item.approvalId, toolName: item.toolName, inputSchema, file };
}

/** The thread's own file at `path`, else the mounted library's (what read_file shows the thread). */
async function currentFile(db: Db, workspacesDir: string, threadId: string, path: string) {
  const own = await readCurrentFile(workspaceDirFor(workspacesDir, threadId), path);
  if (own.state !== "missing") return own;
  const thread = await db.thread.findUnique({ where: { id: threadId }, select: { flow: { select: { workspaceId: true } }, flowVersion: { select: { document: true } } } });
  const libraryDir = thread ? mountedLibraryDir(workspacesDir, thread) : undefined;
  return libraryDir ? readCurrentFile(libraryDir, path) : own;
}
