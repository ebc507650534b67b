// GET /api/threads/:threadId/workspace[?path=] - list the thread's workspace files, or read one (sandboxed).
import { db } from "@/lib/db/client";
import { getThread } from "@/lib/db/threads";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { withUser } from "@/lib/http/with-user";
import { runTool } from "@/lib/tools/gateway";
import { ensureWorkspace } from "@/lib/tools/workspace";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, query: Query }, async (_req, { user, params, query }) => {
  const thread = await getThread(db(), user.id, params.threadId);
  const workspaceDir = await ensureWorkspace(env().WORKSPACES_DIR, thread.id);
  const res = query.path ? await runTool("read_file", { path: query.path }, { workspaceDir }) : await runTool("list_files", { path: "." }, { workspaceDir });
  if (res.status === "error") {
    const status = res.errorCode === "sandbox_violation" ? "forbidden" : res.errorCode === "not_found" ? "not_found" : "bad_request";
    throw new AppError(status, res.errorCode ?? "tool_error", res.output);
  }
  return new Response(res.output, { headers: { "content-type": "application/json" } });
});
