// GET /api/langgraph/info - what this LangGraph Platform API offers (public: versions and flags, no secrets).
import { serverInfo } from "@/lib/langgraph-api/info";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  return Response.json(serverInfo());
}
