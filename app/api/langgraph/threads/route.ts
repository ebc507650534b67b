// POST /api/langgraph/threads - create an API thread (it takes its flow at its first run).
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { createApiThread } from "@/lib/langgraph-api/thread-write";
import { Body } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ body: Body }, async (_req, { user, body }) => Response.json(await createApiThread(db(), user, body)));
