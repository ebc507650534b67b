// GET|POST /api/workspaces/:workspaceId/secrets - list the workspace's secrets (names, hosts, dates; never values; any member); add one (owners only; the value is never shown again).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { addSecret, listSecrets } from "@/lib/workspace-secrets/service";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user, params }) => Response.json({ secrets: await listSecrets(db(), user.id, params.workspaceId) }));

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) => Response.json({ secret: await addSecret(db(), user.id, params.workspaceId, body) }, { status: 201 }));
