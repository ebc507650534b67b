// GET|POST /api/workspaces/:workspaceId/library - list the workspace's library (members); upload files into it (owners only, multipart parts named "file").
import { db } from "@/lib/db/client";
import { readUploadParts } from "@/lib/documents/multipart";
import { env } from "@/lib/env";
import { LIBRARY_REFUSAL } from "@/lib/library/access";
import { libraryAuditSink } from "@/lib/library/audit";
import { withUser } from "@/lib/http/with-user";
import { addLibraryFiles, listLibrary, MAX_LIBRARY_FILE_BYTES, MAX_LIBRARY_FILES, MAX_LIBRARY_REQUEST_BYTES } from "@/lib/tools/library";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", workspace: "workspaceId" } }, async (_req, { params }) => {
  return Response.json({ files: await listLibrary(env().WORKSPACES_DIR, params.workspaceId) });
});

export const POST = withUser({ params: Params, multipart: true, need: { capability: "manage", refusal: LIBRARY_REFUSAL, workspace: "workspaceId" } }, async (req, { user, params }) => {
  // The one multipart reader, streaming and byte-capped (docs/library.md "Rules and limits"):
  // a file over 10 MB or a request over 11 MB of files is refused as it arrives, never held.
  const parts = await readUploadParts(req.body, req.headers.get("content-type"), {
    maxFileBytes: MAX_LIBRARY_FILE_BYTES,
    maxTotalBytes: MAX_LIBRARY_REQUEST_BYTES,
    maxFiles: MAX_LIBRARY_FILES,
    fileLimitName: "the library's limit per file",
    totalRefusal: { reason: "body_too_large", holds: "one request may carry", limitName: "the library's limit per request" },
    filesScope: "per request (and per library)",
  });
  const files = parts.map((p) => ({ name: p.filename, data: p.bytes }));
  return Response.json({ files: await addLibraryFiles(env().WORKSPACES_DIR, params.workspaceId, files, user.id, libraryAuditSink(db(), params.workspaceId)) }, { status: 201 });
});
