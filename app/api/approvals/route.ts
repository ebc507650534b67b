// GET /api/approvals - the approval inbox: approvals of the user's workspaces, filtered by flow, risk and status, soonest to expire first.
import { inboxFlows, listApprovals } from "@/lib/approvals/inbox";
import type { InboxList } from "@/lib/approvals/inbox-item";
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ query: Query }, async (_req, { user, query: filters }) => {
  const [items, flows] = await Promise.all([listApprovals(db(), user.id, filters), inboxFlows(db(), user.id)]);
  return Response.json({ items, flows } satisfies InboxList, { headers: { "cache-control": "no-store" } });
});
