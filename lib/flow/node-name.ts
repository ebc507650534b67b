/**
 * What people call a node: its `name`, else its tool, else its label, else its id. Accepts
 * document or React Flow nodes (only `id` and `data` are read).
 * @example nodeName({ id: "t1", data: { tool: "read_file" } }) // "read_file"
 */
export function nodeName(node: { id: string; data: unknown }): string {
  const data = (node.data ?? {}) as { name?: unknown; label?: unknown; tool?: unknown };
  for (const v of [data.name, data.tool, data.label]) if (typeof v === "string" && v) return v;
  return node.id;
}
