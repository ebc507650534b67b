// POST /api/langgraph/assistants - not offered: assistants are the flows drawn and published in the editor (405).
import { withPlatform } from "@/lib/platform/route";
import { ASSISTANTS_ARE_FLOWS, unsupported } from "@/lib/platform/unsupported";

export const dynamic = "force-dynamic";

export const POST = withPlatform({}, async () => unsupported(ASSISTANTS_ARE_FLOWS));
