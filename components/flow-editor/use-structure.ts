"use client";

import { useRef } from "react";
import type { EditorEdge, EditorNode } from "@/lib/flow/react-flow";

/**
 * The last nodes and edges whose structure (node id, type and `data` object; edge id,
 * source and target) differs from the one before: React Flow makes new arrays on every
 * drag frame, selection and measurement, none of which changes what validation, policy
 * coverage or the problems panel read. Memos keyed on these arrays therefore stay put
 * while the user drags, so a 1,000-node canvas does not re-validate or re-render every
 * node per frame (drag at >= 50 fps, bench/canvas). Costs one O(n) reference
 * comparison per render.
 */
export function useStructure(nodes: EditorNode[], edges: EditorEdge[]): { nodes: EditorNode[]; edges: EditorEdge[] } {
  const last = useRef({ nodes, edges });
  const prev = last.current;
  const sameNodes = prev.nodes === nodes || sameList(prev.nodes, nodes, (a, b) => a.id === b.id && a.type === b.type && a.data === b.data);
  const sameEdges = prev.edges === edges || sameList(prev.edges, edges, (a, b) => a.id === b.id && a.source === b.source && a.target === b.target);
  if (!sameNodes || !sameEdges) last.current = { nodes: sameNodes ? prev.nodes : nodes, edges: sameEdges ? prev.edges : edges };
  return last.current;
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i] as T, b[i] as T)) return false;
  return true;
}
