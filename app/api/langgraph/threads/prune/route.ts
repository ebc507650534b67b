// POST /api/langgraph/threads/prune - not offered (405): delete threads one by one; old checkpoints are pruned by the server's retention.
import { withPlatform } from "@/lib/langgraph-api/route";
import { unsupported } from "@/lib/langgraph-api/unsupported";

export const dynamic = "force-dynamic";

export const POST = withPlatform({}, async () =>
  unsupported("Pruning threads is not offered: delete each thread with DELETE /threads/{thread_id}; old checkpoints are pruned by the server's checkpoint retention."),
);
