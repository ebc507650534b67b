// GET /api/health - 200 { ok: true } once the database answers, 503 otherwise.
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json({ ok: true });
  } catch (err) {
    console.error("health: database unreachable", err);
    return Response.json({ ok: false, error: "database unreachable" }, { status: 503 });
  }
}
