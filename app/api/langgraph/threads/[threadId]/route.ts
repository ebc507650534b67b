// GET|PATCH|DELETE /api/langgraph/threads/:threadId - a thread with its status, values and interrupts; merge its metadata; delete it (erasure).
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { withPlatform } from "@/lib/langgraph-api/route";
import { deletePlatformThread, updateThreadMetadata } from "@/lib/langgraph-api/thread-write";
import { platformThread, resolveThread } from "@/lib/langgraph-api/threads";
import { Body, Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params, query: Query }, async (_req, { user, params }) => Response.json(await platformThread(db(), await resolveThread(db(), user, params.threadId))));

export const PATCH = withPlatform({ params: Params, body: Body }, async (_req, { user, params, body }) => Response.json(await updateThreadMetadata(db(), user, params.threadId, body.metadata ?? {})));

export const DELETE = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await deletePlatformThread(db(), user, params.threadId, env().WORKSPACES_DIR);
  return new Response(null, { status: 204 });
});
