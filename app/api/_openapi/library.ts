import { Params as LibraryFileParams } from "@/app/api/workspaces/[workspaceId]/library/[name]/schema";
import { Params as LibraryParams } from "@/app/api/workspaces/[workspaceId]/library/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Library";

/** Who may change the library (docs/library.md "Who can do what"). */
const OWNERS_ONLY = "Owners of the workspace only: approvers and viewers get 403 `role_forbidden`, anyone else 404.";

/** Workspace library operations (docs/library.md): files a flow mounts read-only into every thread. */
export const libraryOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/library",
    tag: TAG,
    summary: "List the library",
    description: "The workspace library's files, for every member of the workspace.",
    auth: "session-or-key",
    params: LibraryParams,
    responses: { 200: { description: "`{ files: [{ name, sizeBytes, kind, updatedAt }] }`." } },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/library",
    tag: TAG,
    summary: "Upload files into the library",
    description: `A \`multipart/form-data\` body with one or more parts named \`file\`; each part's filename is one name without folders (the sandbox's path rules). The kind comes from the content: UTF-8 text, PDF or DOCX. Limits: 10 MB per file, 11 MB per request, 100 files and 50 MB per library. A file of an existing name replaces it. A cookie request must come from the app's page (Origin / Sec-Fetch-Site). ${OWNERS_ONLY} See docs/library.md.`,
    auth: "session-or-key",
    params: LibraryParams,
    responses: {
      201: { description: "`{ files }`: the files just added." },
      403: { description: "Not an owner (`role_forbidden`), a name the sandbox refuses (`sandbox_violation`), or a cookie request from another site (`cross_origin`)." },
      413: { description: "`file_too_large`, `body_too_large` or `library_full`." },
      415: { description: "`unsupported_file_type`: the content is not text, PDF or DOCX, whatever the name." },
      422: { description: "`invalid_file_name`, `duplicate_file_name`, `too_many_files`, `no_files` or `missing_filename`." },
    },
  },
  {
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/library/{name}",
    tag: TAG,
    summary: "Delete a library file",
    description: `Deletes one file; threads that mount the library no longer see it (their own copies stay). ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: LibraryFileParams,
    responses: { 204: { description: "Deleted." }, 403: { description: "Not an owner (`role_forbidden`)." }, 404: { description: "No such file or workspace." } },
  },
];
