// POST /api/threads/:threadId/files - upload files (multipart, parts named "file") into the thread's workspace.
// GET  /api/threads/:threadId/files?format=zip - the whole workspace as a zip (docs/documents.md).
import { db } from "@/lib/db/client";
import { zipWorkspace } from "@/lib/documents/download";
import { uploadFiles } from "@/lib/documents/upload";
import { env } from "@/lib/env";
import { withUser } from "@/lib/http/with-user";
import { mountedLibraryDir } from "@/lib/library/mount";
import { ensureWorkspace } from "@/lib/tools/workspace";
import { Params, ZipQuery } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, multipart: true, need: { capability: "run", thread: "threadId" } }, async (req, { params, access }) => {
  const e = env();
  const files = await uploadFiles(db(), {
    userId: access,
    threadId: params.threadId,
    req,
    workspacesDir: e.WORKSPACES_DIR,
    limits: { maxFileBytes: e.UPLOAD_MAX_FILE_BYTES, maxWorkspaceBytes: e.UPLOAD_MAX_WORKSPACE_BYTES, maxFiles: e.UPLOAD_MAX_FILES, extractTimeoutMs: e.EXTRACT_TIMEOUT_MS },
  });
  return Response.json({ files }, { status: 201 });
});

export const GET = withUser({ params: Params, query: ZipQuery, need: { capability: "see", thread: "threadId" } }, async (_req, { access: { thread } }) => {
  // The mounted library's files are in the zip too, as the thread's tools see them (docs/library.md).
  const stream = await zipWorkspace(await ensureWorkspace(env().WORKSPACES_DIR, thread.id), mountedLibraryDir(env().WORKSPACES_DIR, thread));
  return new Response(stream, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="workspace-${thread.id}.zip"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
});
