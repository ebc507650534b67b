import type { z } from "zod";
import type { NodeKind } from "./react-flow";
import { FlowNode } from "./schema";

/**
 * The `data` of one node kind as the inspector's forms edit it ("inspector form
 * per node"): the kind's zod schema, taken from `FlowNode` so the forms and the document
 * can never disagree, and which form values to apply to the canvas.
 */

type NodeOption = (typeof FlowNode.options)[number];

/** The zod schema of the `data` of node kind `K`, e.g. `AgentData` for "agent". */
export type NodeDataSchema<K extends NodeKind> = Extract<NodeOption, { shape: { type: z.ZodLiteral<K> } }>["shape"]["data"];

/**
 * The zod schema of the `data` of a node kind, the very one `FlowNode` parses with.
 * @throws Error when `kind` is not a node kind of the schema (a programming error).
 */
export function nodeDataSchema<K extends NodeKind>(kind: K): NodeDataSchema<K> {
  const option = FlowNode.options.find((o) => o.shape.type.value === kind);
  if (!option) throw new Error(`no node kind "${kind}" in FlowNode`);
  return option.shape.data as NodeDataSchema<K>;
}

/**
 * Structural equality of JSON-like values: objects by their keys in any order (a key whose
 * value is `undefined` counts as missing), arrays in order, numbers by `Object.is` except
 * that 0 equals -0 (so NaN equals NaN).
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameData(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const leftKeys = keys(left);
  if (leftKeys.length !== keys(right).length) return false;
  return leftKeys.every((k) => Object.hasOwn(right, k) && sameData(left[k], right[k]));
}

/**
 * What an inspector form applies to its node: the schema's output for `values` when they
 * parse and differ from `current` (the node's data now), else null (invalid values stay in
 * the form with their errors and are not applied until fixed; equal ones change nothing).
 */
export function dataToApply<T>(schema: z.ZodType<T>, values: unknown, current: T): T | null {
  const parsed = schema.safeParse(values);
  if (!parsed.success || sameData(parsed.data, current)) return null;
  return parsed.data;
}
