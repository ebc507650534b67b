// GET|POST /api/admin/users - list every account and workspace; create an account (instance admins only, 403 otherwise; a key scoped to one workspace is refused, 403).
import { db } from "@/lib/db/client";
import { createAccount, instanceOverview } from "@/lib/db/accounts";
import { withUser } from "@/lib/http/with-user";
import { Body } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ accountLevel: true }, async (_req, { user }) => Response.json(await instanceOverview(db(), user.id)));

export const POST = withUser({ body: Body, accountLevel: true }, async (_req, { user, body }) => Response.json({ account: await createAccount(db(), user.id, body) }, { status: 201 }));
