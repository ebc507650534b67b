// GET|POST /api/workspaces/:workspaceId/secrets - list the workspace's secrets (names, hosts, dates; never values; any member); add one (owners only; the value is never shown again).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { addSecret, listSecrets, SECRETS_REFUSAL } from "@/lib/workspace-secrets/service";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ secrets: await listSecrets(db(), access, params.workspaceId) }),
);

export const POST = withUser({ params: Params, body: Body, need: { capability: "manage", refusal: SECRETS_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ secret: await addSecret(db(), access, params.workspaceId, body) }, { status: 201 }),
);
