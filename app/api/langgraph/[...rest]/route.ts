// ANY /api/langgraph/* - every LangGraph Platform API endpoint Phylactery does not offer: 404 naming it and where the list is.
import { withPlatform } from "@/lib/langgraph-api/route";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

// More specific route files always win over this catch-all, so it answers only for paths no
// other route under /api/langgraph declares.
function notOffered(method: string, rest: string[]): Response {
  const detail = `Phylactery does not support ${method} /${rest.join("/")} of the LangGraph Platform API; see docs/langgraph-api.md#unsupported`;
  return Response.json({ detail, error: { code: "not_found", reason: "unsupported_endpoint", message: detail } }, { status: 404 });
}

export const GET = withPlatform({ params: Params }, async (req, { params }) => notOffered(req.method, params.rest));
export const POST = withPlatform({ params: Params }, async (req, { params }) => notOffered(req.method, params.rest));
export const PUT = withPlatform({ params: Params }, async (req, { params }) => notOffered(req.method, params.rest));
export const PATCH = withPlatform({ params: Params }, async (req, { params }) => notOffered(req.method, params.rest));
export const DELETE = withPlatform({ params: Params }, async (req, { params }) => notOffered(req.method, params.rest));
