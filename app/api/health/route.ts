// GET /api/health - 200 { ok: true } once the database answers, 503 otherwise. With
// RUN_IN=process it also says whether the worker child executes runs:
// { ok, worker: { up, restarts } } (docs/operations.md "Health").
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { workerChildStatus } from "@/lib/runs/worker-child";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const worker = workerChildStatus();
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json(worker ? { ok: true, worker } : { ok: true });
  } catch (err) {
    logger.error({ err }, "health: database unreachable");
    return Response.json({ ok: false, error: "database unreachable", ...(worker ? { worker } : {}) }, { status: 503 });
  }
}
