"use client";

import { applyNodeChanges, type Connection, type EdgeChange, type NodeChange, useEdgesState, useNodesState } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { dropEstimatedHandles, withEstimatedSizes } from "@/lib/flow/canvas-size";
import { connectionRefusal } from "@/lib/flow/connection-rule";
import { type EditorEdge, type EditorNode, nextEdgeId, toReactFlow, withData } from "@/lib/flow/react-flow";
import type { FlowDocument } from "@/lib/flow/schema";
import { useHistory } from "./use-history";

/** One undo step: the whole editable state, and the revision it had (so undoing back to a save is clean). */
export interface EditorSnapshot {
  nodes: EditorNode[];
  edges: EditorEdge[];
  settings: FlowDocument["settings"];
  revision: number;
}

/**
 * The editor's document state: React Flow nodes and edges, the flow settings, undo/redo
 * and dirty tracking. Every change goes through `change(key?)` first, which records an undo
 * step (coalesced: a drag, a burst of typing in one node, one JavaScript task) and takes a
 * fresh revision; the editor is dirty while the revision differs from the last saved one,
 * so undoing back to the saved state is clean again. Returns React Flow's handlers
 * (`onNodesChange`, `onConnect`...), the inspector's (`onNodeData`, `onDisconnect`),
 * `insert` / `replace` for palette, paste and import, and `updateSettings` for the Flow
 * settings dialog. A loaded or imported document's nodes start with estimated sizes
 * (lib/flow/canvas-size.ts), so React Flow draws only those in view; each measurement
 * replaces its node's estimate. With `readOnly` (a role that cannot edit), React Flow's handlers apply
 * selection only: no move, delete or connection reaches the document.
 */
export function useFlowState(document: FlowDocument, { readOnly = false }: { readOnly?: boolean } = {}) {
  const [initial] = useState(() => {
    const flow = toReactFlow(document);
    return { nodes: withEstimatedSizes(flow.nodes), edges: flow.edges };
  });
  const [nodes, setNodes] = useNodesState<EditorNode>(initial.nodes);
  const [edges, setEdges, applyEdgeChanges] = useEdgesState<EditorEdge>(initial.edges);
  const [settings, setSettings] = useState(document.settings);

  const revisions = useRef(0);
  const [revision, setRevision] = useState(0);
  const [savedRevision, setSavedRevision] = useState(0);

  const { record, breakCoalescing, undo: undoStep, redo: redoStep, canUndo, canRedo } = useHistory<EditorSnapshot>();
  /** The state as last rendered: what an undo step records and what handlers read. */
  const latest = useRef<EditorSnapshot>({ nodes, edges, settings, revision });
  useEffect(() => {
    latest.current = { nodes, edges, settings, revision };
  });

  /** Call before changing the document: records an undo step and marks the editor dirty. */
  const change = useCallback(
    (key: string | null = null, windowMs?: number) => {
      record(latest.current, key, windowMs);
      revisions.current += 1;
      setRevision(revisions.current);
    },
    [record],
  );

  const restore = useCallback(
    (s: EditorSnapshot | null) => {
      if (!s) return;
      setNodes(s.nodes.map((n) => ({ ...n, selected: false })));
      setEdges(s.edges.map((e) => ({ ...e, selected: false })));
      setSettings(s.settings);
      setRevision(s.revision);
    },
    [setNodes, setEdges],
  );
  /** The state as last rendered (stable function, for event handlers). */
  const current = useCallback(() => latest.current, []);
  const undo = useCallback(() => restore(undoStep(latest.current)), [restore, undoStep]);
  const redo = useCallback(() => restore(redoStep(latest.current)), [restore, redoStep]);

  // A drag is one undo step: its moves share a key until the drag stops.
  const dragging = useRef(false);
  const onDragStart = useCallback(() => {
    dragging.current = true;
  }, []);
  const onDragStop = useCallback(() => {
    dragging.current = false;
    breakCoalescing();
  }, [breakCoalescing]);

  const onNodesChange = useCallback(
    (all: NodeChange<EditorNode>[]) => {
      const changes = readOnly ? all.filter((c) => c.type === "select" || c.type === "dimensions") : all;
      const edits = changes.filter((c) => c.type !== "select" && c.type !== "dimensions");
      if (edits.length > 0) {
        const moves = edits.every((c) => c.type === "position");
        // A drag is one step until it stops; arrow-key nudges coalesce like typing.
        if (moves) change(dragging.current ? "drag" : "nudge", dragging.current ? Number.POSITIVE_INFINITY : undefined);
        else change();
      }
      // A node just measured keeps the handle bounds React Flow measured, not the estimate.
      const measured = new Set(changes.flatMap((c) => (c.type === "dimensions" ? [c.id] : [])));
      setNodes((ns) => dropEstimatedHandles(applyNodeChanges(changes, ns), measured));
    },
    [setNodes, change, readOnly],
  );
  const onEdgesChange = useCallback(
    (all: EdgeChange<EditorEdge>[]) => {
      const changes = readOnly ? all.filter((c) => c.type === "select") : all;
      if (changes.some((c) => c.type !== "select")) change();
      applyEdgeChanges(changes);
    },
    [applyEdgeChanges, change, readOnly],
  );
  /**
   * The shared connection rule (lib/flow/connection-rule.ts), asked by React Flow while a
   * connection is dragged: the same node, an edge already drawn, or kinds that cannot be
   * joined are refused. Reads the state as last rendered, so it stays one stable function.
   */
  const isValidConnection = useCallback(
    (c: EditorEdge | Connection) => {
      if (readOnly) return false;
      const { nodes: ns, edges: es } = latest.current;
      const source = ns.find((n) => n.id === c.source);
      const target = ns.find((n) => n.id === c.target);
      return Boolean(source && target) && connectionRefusal(source as EditorNode, target as EditorNode, es) === null;
    },
    [readOnly],
  );
  const onConnect = useCallback(
    (c: Connection) => {
      if (!isValidConnection(c)) return;
      const { source, target } = c;
      change();
      setEdges((es) => [...es, { id: nextEdgeId(es, source, target), source, target }]);
    },
    [setEdges, change, isValidConnection],
  );
  /**
   * The inspector's edits: replaces fields of the node's `data` (the node as it is now: it
   * may have moved since the form rendered). Typing in one node is one undo step per pause.
   */
  const onNodeData = useCallback(
    (nodeId: string, data: Partial<EditorNode["data"]>) => {
      if (!latest.current.nodes.some((n) => n.id === nodeId)) return;
      change(`edit:${nodeId}`);
      setNodes((ns) => ns.map((n) => (n.id === nodeId ? withData(n, data) : n)));
    },
    [setNodes, change],
  );
  const onDisconnect = useCallback(
    (edgeId: string) => {
      change();
      setEdges((es) => es.filter((e) => e.id !== edgeId));
    },
    [setEdges, change],
  );

  /** Adds nodes and edges as one undo step; they become the selection. */
  const insert = useCallback(
    (added: EditorNode[], addedEdges: EditorEdge[]) => {
      change();
      setNodes((ns) => [...ns.map((n) => (n.selected ? { ...n, selected: false } : n)), ...added.map((n) => ({ ...n, selected: true }))]);
      setEdges((es) => [...es.map((e) => (e.selected ? { ...e, selected: false } : e)), ...addedEdges]);
    },
    [change, setNodes, setEdges],
  );

  /** Replaces the flow settings (the Flow settings dialog's Apply) as one undo step; marks the editor dirty. */
  const updateSettings = useCallback(
    (next: FlowDocument["settings"]) => {
      change();
      setSettings(next);
    },
    [change],
  );

  /** Replaces the whole document (an import) as one undo step; the flow keeps its own name. */
  const replace = useCallback(
    (doc: FlowDocument) => {
      change();
      const next = toReactFlow(doc);
      setNodes(withEstimatedSizes(next.nodes));
      setEdges(next.edges);
      setSettings((s) => ({ ...doc.settings, name: s.name }));
    },
    [change, setNodes, setEdges],
  );

  return {
    nodes,
    edges,
    settings,
    setNodes,
    setEdges,
    current,
    change,
    insert,
    replace,
    updateSettings,
    /** The revision on screen; pass it to `markSaved` once a save of this state succeeds. */
    revision,
    markSaved: setSavedRevision,
    dirty: revision !== savedRevision,
    undo,
    redo,
    canUndo,
    canRedo,
    flowHandlers: {
      onNodesChange,
      onEdgesChange,
      onConnect,
      isValidConnection,
      onNodeDragStart: onDragStart,
      onNodeDragStop: onDragStop,
      onSelectionDragStart: onDragStart,
      onSelectionDragStop: onDragStop,
    },
    inspectorHandlers: { onNodeData, onDisconnect },
  };
}
