import type { z } from "zod";
import { FlowDocument } from "./schema";

/**
 * Zod issues of a flow document in words that name the node and the field (an
 * import error must say where to look), e.g.
 * `node "writer" (agent), field data.name: Too small: expected string to have >=1 characters`.
 */

/** A flow document's issue located on its node or edge. */
export interface LocatedIssue {
  /** The dotted path in the document, e.g. `nodes.3.data.name`. */
  path: string;
  /** The node's id when the issue is inside a node. */
  nodeId?: string;
  /** The edge's id when the issue is inside an edge. */
  edgeId?: string;
  message: string;
}

/** A string id at `list[index].id` of a raw (unvalidated) document, if there is one. */
function idAt(raw: unknown, list: "nodes" | "edges", index: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null || typeof index !== "number") return undefined;
  const items = (raw as Record<string, unknown>)[list];
  const item = Array.isArray(items) ? items[index] : undefined;
  const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
  return typeof id === "string" && id ? id : undefined;
}

function kindAt(raw: unknown, index: number): string | undefined {
  const items = typeof raw === "object" && raw !== null ? (raw as { nodes?: unknown }).nodes : undefined;
  const item = Array.isArray(items) ? items[index] : undefined;
  const type = typeof item === "object" && item !== null ? (item as { type?: unknown }).type : undefined;
  return typeof type === "string" ? type : undefined;
}

/**
 * One issue located and described. `raw` is the document the issue came from (any shape:
 * it is only read for node and edge ids).
 */
export function locateIssue(raw: unknown, issue: z.core.$ZodIssue): LocatedIssue {
  const path = issue.path.map(String).join(".");
  const [root, index, ...rest] = issue.path;
  const field = rest.map(String).join(".") || "(the whole item)";
  if (root === "nodes" && typeof index === "number") {
    const nodeId = idAt(raw, "nodes", index);
    const kind = kindAt(raw, index);
    const who = nodeId ? `node "${nodeId}"${kind ? ` (${kind})` : ""}` : `node #${index + 1}`;
    return { path, ...(nodeId ? { nodeId } : {}), message: `${who}, field ${field}: ${issue.message}` };
  }
  if (root === "edges" && typeof index === "number") {
    const edgeId = idAt(raw, "edges", index);
    const who = edgeId ? `edge "${edgeId}"` : `edge #${index + 1}`;
    return { path, ...(edgeId ? { edgeId } : {}), message: `${who}, field ${field}: ${issue.message}` };
  }
  return { path, message: `${path || "the document"}: ${issue.message}` };
}

/** {@link locateIssue}'s message alone. */
export function describeIssue(raw: unknown, issue: z.core.$ZodIssue): string {
  return locateIssue(raw, issue).message;
}

/** The result of reading an imported flow file. */
export type FlowImport = { ok: true; document: FlowDocument } | { ok: false; issues: LocatedIssue[] };

/**
 * Reads a flow exported as JSON text (import, validated, with errors that name the
 * node and field). Never throws: text that is not JSON gives one issue with the parser's
 * message; a document that fails the schema gives every issue, located.
 */
export function parseFlowImport(text: string): FlowImport {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, issues: [{ path: "", message: `The file is not JSON: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  const parsed = FlowDocument.safeParse(raw);
  if (parsed.success) return { ok: true, document: parsed.data };
  return { ok: false, issues: parsed.error.issues.map((issue) => locateIssue(raw, issue)) };
}
