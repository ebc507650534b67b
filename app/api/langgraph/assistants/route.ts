// POST /api/langgraph/assistants - not offered: assistants are the flows drawn and published in the editor (405).
import { withPlatform } from "@/lib/langgraph-api/route";
import { ASSISTANTS_ARE_FLOWS, unsupported } from "@/lib/langgraph-api/unsupported";

export const dynamic = "force-dynamic";

export const POST = withPlatform({}, async () => unsupported(ASSISTANTS_ARE_FLOWS));
