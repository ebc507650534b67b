// GET /api/threads/:threadId/files/<path> - the original bytes of one workspace file (or of the mounted library's), as a download (docs/documents.md).
import { readOriginal } from "@/lib/documents/download";
import { env } from "@/lib/env";
import { withUser } from "@/lib/http/with-user";
import { mountedLibraryDir } from "@/lib/library/mount";
import { ensureWorkspace } from "@/lib/tools/workspace";
import { FileParams } from "../schema";

export const dynamic = "force-dynamic";

/** `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266, RFC 8187). */
function disposition(path: string): string {
  const name = path.split("/").pop() ?? "file";
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const GET = withUser({ params: FileParams, need: { capability: "see", thread: "threadId" } }, async (_req, { params, access: { thread } }) => {
  const dir = await ensureWorkspace(env().WORKSPACES_DIR, thread.id);
  const file = await readOriginal(dir, params.path.join("/"), mountedLibraryDir(env().WORKSPACES_DIR, thread));
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "content-type": file.contentType,
      "content-length": String(file.bytes.byteLength),
      "content-disposition": disposition(file.path),
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
      "cache-control": "private, no-store",
    },
  });
});
