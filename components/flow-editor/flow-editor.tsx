"use client";

import "@xyflow/react/dist/style.css";
import {
  Background,
  type Connection,
  Controls,
  type EdgeChange,
  MarkerType,
  MiniMap,
  type NodeChange,
  ReactFlow,
  useEdgesState,
  useNodesState,
} from "@xyflow/react";
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from "react";
import {
  type EditorEdge,
  type EditorNode,
  fromReactFlow,
  nextEdgeId,
  type PolicyNodeType,
  toReactFlow,
} from "@/lib/flow/react-flow";
import type { FlowDocument } from "@/lib/flow/schema";
import { type FlowProblem, validateFlow } from "@/lib/flow/validate";
import { type CatalogTool, EditorContext } from "./editor-context";
import styles from "./flow-editor.module.css";
import { Inspector } from "./inspector";
import { nodeTypes } from "./nodes";
import { Toolbar } from "./toolbar";
import { useSaveFlow } from "./use-save-flow";

export interface FlowEditorProps {
  flowId: string;
  /** The version `document` was loaded from; the label follows later saves. */
  version: number;
  /** Read once on mount; give the editor a new `key` to load another document. */
  document: FlowDocument;
  tools: CatalogTool[];
}

const DELETE_KEYS = ["Delete", "Backspace"];
const EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed } };

/**
 * The flow editor: React Flow canvas, inspector of the selection and a toolbar that saves
 * the document as a new version (Save button or Ctrl/Cmd+S). Warns before leaving with
 * unsaved changes.
 */
export function FlowEditor({ flowId, version: loadedVersion, document, tools }: FlowEditorProps) {
  const [initial] = useState(() => toReactFlow(document));
  const [nodes, setNodes, applyNodeChanges] = useNodesState<EditorNode>(initial.nodes);
  const [edges, setEdges, applyEdgeChanges] = useEdgesState<EditorEdge>(initial.edges);
  const [message, setMessage] = useState("");
  const { version, state: saveState, save, dismissError } = useSaveFlow(flowId, loadedVersion);

  // Dirty = edits since the last successful save; a save only clears the edits it sent.
  const [revision, setRevision] = useState(0);
  const [savedRevision, setSavedRevision] = useState(0);
  const dirty = revision !== savedRevision;
  const markDirty = useCallback(() => setRevision((r) => r + 1), []);

  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      applyNodeChanges(changes);
      if (changes.some((c) => c.type !== "select" && c.type !== "dimensions")) markDirty();
    },
    [applyNodeChanges, markDirty],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<EditorEdge>[]) => {
      applyEdgeChanges(changes);
      if (changes.some((c) => c.type !== "select")) markDirty();
    },
    [applyEdgeChanges, markDirty],
  );
  const onConnect = useCallback(
    ({ source, target }: Connection) => {
      setEdges((es) => [...es, { id: nextEdgeId(es, source, target), source, target }]);
      markDirty();
    },
    [setEdges, markDirty],
  );
  const isValidConnection = useCallback(
    (c: EditorEdge | Connection) =>
      c.source !== c.target && !edges.some((e) => e.source === c.source && e.target === c.target),
    [edges],
  );
  const onNodeChange = useCallback(
    (next: EditorNode) => {
      setNodes((ns) => ns.map((n) => (n.id === next.id ? next : n)));
      markDirty();
    },
    [setNodes, markDirty],
  );
  const onDisconnect = useCallback(
    (edgeId: string) => {
      setEdges((es) => es.filter((e) => e.id !== edgeId));
      markDirty();
    },
    [setEdges, markDirty],
  );

  const handleSave = async () => {
    if (saveState.status === "saving") return;
    const sent = revision;
    if (await save(fromReactFlow(document.settings, nodes, edges), message.trim())) {
      setSavedRevision(sent);
      setMessage("");
    }
  };

  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
      e.preventDefault();
      void handleSave();
    }
  });
  useEffect(() => {
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ""; // older browsers show the prompt only when this is set
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const catalog = useMemo(() => new Map(tools.map((t) => [t.name, t])), [tools]);
  const policies = useMemo(() => nodes.filter((n): n is PolicyNodeType => n.type === "policy"), [nodes]);
  const problemList = useMemo(
    () => validateFlow({ nodes, edges }, { known: (name) => catalog.has(name), sideEffect: (name) => catalog.get(name)?.sideEffect ?? true }),
    [nodes, edges, catalog],
  );
  const problems = useMemo(() => {
    const byNode = new Map<string, FlowProblem[]>();
    for (const p of problemList) if (p.nodeId) byNode.set(p.nodeId, [...(byNode.get(p.nodeId) ?? []), p]);
    return byNode;
  }, [problemList]);
  const context = useMemo(() => ({ tools: catalog, policies, problems }), [catalog, policies, problems]);

  return (
    <div className={styles.editor}>
      <Toolbar
        name={document.settings.name}
        version={version}
        dirty={dirty}
        save={saveState}
        message={message}
        onMessageChange={setMessage}
        onSave={() => void handleSave()}
        onDismissError={dismissError}
      />
      <div className={styles.body}>
        <div className={styles.canvas} data-testid="flow-canvas">
          <EditorContext value={context}>
            <ReactFlow<EditorNode, EditorEdge>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              isValidConnection={isValidConnection}
              deleteKeyCode={DELETE_KEYS}
              defaultEdgeOptions={EDGE_OPTIONS}
              colorMode="system"
              fitView
            >
              <Background />
              <Controls />
              <MiniMap<EditorNode> nodeColor={miniMapColor} pannable zoomable />
            </ReactFlow>
          </EditorContext>
        </div>
        <Inspector nodes={nodes} edges={edges} tools={tools} onNodeChange={onNodeChange} onDisconnect={onDisconnect} />
      </div>
    </div>
  );
}

function miniMapColor(node: EditorNode): string {
  switch (node.type) {
    case "agent":
      return node.data.color;
    case "policy":
      return "#b7791f";
    case "tool":
      return "#4a6fa5";
    case "supervisor":
      return "#6b5bd2";
    default:
      return "#8a8f98";
  }
}
