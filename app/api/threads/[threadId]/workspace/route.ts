// GET /api/threads/:threadId/workspace[?path=] - list the thread's workspace files and the mounted library's (marked readOnly), or read one (sandboxed; docs/library.md).
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { withUser } from "@/lib/http/with-user";
import { mountedLibraryDir } from "@/lib/library/mount";
import { runTool } from "@/lib/tools/gateway";
import { ensureWorkspace } from "@/lib/tools/workspace";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, query: Query, need: { capability: "see", thread: "threadId" } }, async (_req, { query, access: { thread } }) => {
  const workspaceDir = await ensureWorkspace(env().WORKSPACES_DIR, thread.id);
  // What the thread's file tools see: its own files over the mounted library (docs/library.md "Mounting").
  const libraryDir = mountedLibraryDir(env().WORKSPACES_DIR, thread);
  const ctx = { workspaceDir, ...(libraryDir ? { libraryDir } : {}) };
  const res = query.path ? await runTool("read_file", { path: query.path }, ctx) : await runTool("list_files", { path: "." }, ctx);
  if (res.status === "error") {
    const status = res.errorCode === "sandbox_violation" ? "forbidden" : res.errorCode === "not_found" ? "not_found" : "bad_request";
    throw new AppError(status, res.errorCode ?? "tool_error", res.output);
  }
  return new Response(res.output, { headers: { "content-type": "application/json" } });
});
