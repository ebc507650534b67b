// GET|POST /api/workspaces/:workspaceId/library - list the workspace's library (members); upload files into it (owners only, multipart parts named "file").
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { requireLibraryAccess } from "@/lib/library/access";
import { readMultipartFiles } from "@/lib/http/multipart";
import { withUser } from "@/lib/http/with-user";
import { addLibraryFiles, listLibrary, MAX_LIBRARY_FILE_BYTES, MAX_LIBRARY_FILES } from "@/lib/tools/library";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user, params }) => {
  await requireLibraryAccess(db(), user.id, params.workspaceId, "see");
  return Response.json({ files: await listLibrary(env().WORKSPACES_DIR, params.workspaceId) });
});

export const POST = withUser({ params: Params, multipart: true }, async (req, { user, params }) => {
  await requireLibraryAccess(db(), user.id, params.workspaceId, "manage");
  // One request carries at most a full library's worth of files, plus room for the part headers.
  const files = await readMultipartFiles(req, { maxBodyBytes: MAX_LIBRARY_FILE_BYTES + 1_048_576, maxFiles: MAX_LIBRARY_FILES, maxFileBytes: MAX_LIBRARY_FILE_BYTES });
  return Response.json({ files: await addLibraryFiles(env().WORKSPACES_DIR, params.workspaceId, files, user.id) }, { status: 201 });
});
