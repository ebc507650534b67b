import "server-only";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { historyGraph } from "../engine/time-travel";
import type { SessionUser } from "../http/with-user";
import { getAssistant } from "./assistants";

/**
 * The drawing of an assistant's compiled LangGraph graph (docs/langgraph-api.md#assistants):
 * the flow's latest version compiled as runs compile it (lib/engine/graph.ts, with services
 * that refuse to run), then LangGraph's own `getGraphAsync({ xray }).toJSON()`: the Platform's
 * `{ nodes: [{ id, type, data }], edges: [{ source, target, conditional?, data? }] }`.
 * @param xray true or a depth to include subgraphs (ours has none).
 * @throws AppError not_found (not the caller's flow, or a flow without a version).
 */
export async function assistantGraph(db: Db, user: SessionUser, assistantId: string, xray: boolean | number): Promise<Record<string, unknown>> {
  await getAssistant(db, user, assistantId);
  const latest = await db.flowVersion.findFirst({ where: { flowId: assistantId }, orderBy: { version: "desc" }, select: { document: true } });
  if (!latest) throw new AppError("not_found", "assistant_not_found", `Assistant ${assistantId} has no published version yet: publish the flow in the editor.`);
  const { graph } = historyGraph(db, latest.document);
  const drawing = await graph.getGraphAsync({ xray });
  return drawing.toJSON() as unknown as Record<string, unknown>;
}
