// GET /api/health - 200 { ok: true } once the database answers, 503 otherwise.
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json({ ok: true });
  } catch (err) {
    logger.error({ err }, "health: database unreachable");
    return Response.json({ ok: false, error: "database unreachable" }, { status: 503 });
  }
}
