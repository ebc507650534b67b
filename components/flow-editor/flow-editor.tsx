"use client";

import "@xyflow/react/dist/style.css";
import { Background, Controls, MarkerType, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { type DragEvent, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { type NodeClipboard, pasteNodes } from "@/lib/flow/clipboard";
import { autoLayout, DEFAULT_NODE_SIZE, freeSpot } from "@/lib/flow/layout";
import { createNode } from "@/lib/flow/node-defaults";
import { type EditorEdge, type EditorNode, fromReactFlow, type PolicyNodeType } from "@/lib/flow/react-flow";
import type { FlowDocument } from "@/lib/flow/schema";
import { type FlowProblem, validateFlow } from "@/lib/flow/validate";
import { ConnectionStatus } from "./connection-status";
import { type EditorAccess, editDeniedReason, OWNER_ACCESS, runDeniedReason } from "./editor-access";
import { type CatalogTool, EditorContext } from "./editor-context";
import styles from "./flow-editor.module.css";
import { FlowSettingsDialog } from "./flow-settings-dialog";
import { downloadFlow, ImportDialog } from "./import-export";
import { Inspector, type PendingEdit, type Selection } from "./inspector";
import { nodeTypes } from "./nodes";
import { isPaletteDrag, Palette, type PaletteDrop, readPaletteDrop } from "./palette";
import { ProblemsPanel } from "./problems-panel";
import { useStructure } from "./use-structure";
import { RunBar, runBlockedReason } from "./run-bar";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { Toolbar } from "./toolbar";
import { useClipboard } from "./use-clipboard";
import { useFlowState } from "./use-flow-state";
import { useLeaveGuard } from "./use-leave-guard";
import { useSaveFlow } from "./use-save-flow";
import { isEditableTarget, useShortcuts } from "./use-shortcuts";

export interface FlowEditorProps {
  flowId: string;
  /** The version `document` was loaded from; the label follows later saves. */
  version: number;
  /** Read once on mount; give the editor a new `key` to load another document. */
  document: FlowDocument;
  tools: CatalogTool[];
  /** What the user's role allows (editor-access.ts); omitted: an owner's full editor. */
  access?: EditorAccess;
  /** The task the run form starts with (templates/index.ts suggestedTask; empty for a Blank flow). */
  defaultTask?: string;
  /** Model providers configured for the user's runs (docs/models.md "Validation"); omitted: models are not checked. */
  providers?: string[];
}

/**
 * The flow as a run sees it, as text: settings, node ids, kinds and data, and the edges;
 * not where the nodes are drawn. A change of positions only (a drag, an auto-layout) is an
 * edit the user may save, but the saved version runs exactly the same, so it does not hold
 * back Run (docs/architecture.md#flows-and-compilation).
 */
function runShape(settings: FlowDocument["settings"], nodes: readonly { id: string; type?: string; data: unknown }[], edges: readonly EditorEdge[]): string {
  return JSON.stringify({
    settings,
    nodes: nodes.map((n) => [n.id, n.type, n.data]),
    edges: edges.map((e) => [e.id, e.source, e.target]),
  });
}

/**
 * The editor's panels, memoized: the editor renders again on every frame of a drag (React
 * Flow's nodes are its state), and each panel gets props that stay the same while nodes
 * only move (the structure, stable callbacks), so a drag re-renders the canvas alone
 * (docs/benchmarks.md, bench:canvas).
 */
const MemoRunBar = memo(RunBar);
const MemoToolbar = memo(Toolbar);
const MemoPalette = memo(Palette);
const MemoProblemsPanel = memo(ProblemsPanel);
const MemoShortcutsDialog = memo(ShortcutsDialog);
const MemoImportDialog = memo(ImportDialog);
const MemoFlowSettingsDialog = memo(FlowSettingsDialog);

/**
 * A function whose identity never changes and that calls the latest `fn` (for handlers
 * handed to memoized panels that read the editor's current state).
 */
function useStableHandler<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const ref = useRef(fn);
  useLayoutEffect(() => {
    ref.current = fn;
  });
  return useCallback((...args: A) => ref.current(...args), []);
}

/** The selected node and edge ids, the same object while the selection does not change. */
function useSelection(nodes: readonly EditorNode[], edges: readonly EditorEdge[]): Selection {
  const ids = (list: readonly { id: string; selected?: boolean }[]) => list.flatMap((x) => (x.selected ? [x.id] : []));
  const next = { nodes: ids(nodes), edges: ids(edges) };
  const last = useRef(next);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);
  if (!same(last.current.nodes, next.nodes) || !same(last.current.edges, next.edges)) last.current = next;
  return last.current;
}

const DELETE_KEYS = ["Delete", "Backspace"];
const MULTI_SELECT_KEYS = ["Shift", "Meta", "Control"];
const EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed } };
const FIT = { padding: 0.15, duration: 300 };
/**
 * Above this many nodes the minimap is left out: it subscribes one shape per node to React
 * Flow's store (each runs on every pan and drag frame) and the browser repaints all of them
 * when the view moves, which held a 1,000-node flow below 55 fps at load average 1
 * (docs/benchmarks.md, bench:canvas); at that size its dots no longer show a shape to
 * navigate by.
 */
const MINIMAP_MAX_NODES = 500;

/**
 * The flow editor (docs/architecture.md#flows-and-compilation): the run bar, a toolbar (save a new version, undo/
 * redo, auto-layout, zoom to fit, Flow settings, import/export, problems, shortcuts), the node palette,
 * the React Flow canvas with live validation, the problems panel and the inspector of the
 * selection. Warns before leaving with unsaved changes. A user whose role cannot edit gets
 * a read-only editor: no palette, inspector fields disabled, nodes neither moved, connected
 * nor deleted, Save disabled with the reason (and Run too when the role cannot run).
 */
export function FlowEditor(props: FlowEditorProps) {
  return (
    <ReactFlowProvider>
      <Editor {...props} />
    </ReactFlowProvider>
  );
}

function Editor({ flowId, version: loadedVersion, document, tools, access = OWNER_ACCESS, defaultTask, providers }: FlowEditorProps) {
  const readOnlyReason = editDeniedReason(access);
  const readOnly = readOnlyReason !== null;
  const doc = useFlowState(document, { readOnly });
  const { nodes, edges, settings, setNodes, setEdges, current, change, insert, replace, updateSettings, undo, redo } = doc;
  const [message, setMessage] = useState("");
  const { version, state: saveState, save, dismissError } = useSaveFlow(flowId, loadedVersion);
  const flow = useReactFlow<EditorNode, EditorEdge>();
  const canvasRef = useRef<HTMLDivElement>(null);
  const [paletteTool, setPaletteTool] = useState(() => tools.find((t) => t.name === "read_file")?.name ?? tools[0]?.name ?? "read_file");
  const [problemsOpen, setProblemsOpen] = useState(true);
  const [dialog, setDialog] = useState<"shortcuts" | "import" | "settings" | null>(null);
  const [fitPending, setFitPending] = useState(false);
  // An inspector edit held back because it fails the node's schema (not on the canvas).
  const [pending, setPending] = useState<PendingEdit | null>(null);
  // What the last saved version runs (runShape), to tell edits a run would see from layout.
  const [savedShape, setSavedShape] = useState(() => runShape(document.settings, document.nodes, document.edges));

  /** The visible part of the canvas in flow coordinates. */
  const visibleRect = useCallback(() => {
    const box = canvasRef.current?.getBoundingClientRect();
    if (!box) return null;
    const a = flow.screenToFlowPosition({ x: box.left, y: box.top });
    const b = flow.screenToFlowPosition({ x: box.right, y: box.bottom });
    return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
  }, [flow]);

  const addFromPalette = useCallback(
    (drop: PaletteDrop, at?: { x: number; y: number }) => {
      const present = current().nodes;
      const node = createNode(drop.key, { x: 0, y: 0 }, new Set(present.map((n) => n.id)), drop.tool);
      // Its size: that of a node of the same kind already drawn, else the default.
      const like = present.find((n) => n.type === node.type && n.measured?.width && n.measured?.height)?.measured;
      const size = like?.width && like.height ? { width: like.width, height: like.height } : DEFAULT_NODE_SIZE;
      // Dropped: centred under the pointer. Keyboard or click: the middle of the view.
      const view = visibleRect();
      const centre = at ?? (view ? { x: view.x + view.width / 2, y: view.y + view.height / 2 } : { x: size.width / 2, y: size.height / 2 });
      // Never on top of another node: moved to the nearest free spot (lib/flow/layout.ts freeSpot).
      const position = freeSpot({ x: centre.x - size.width / 2, y: centre.y - size.height / 2 }, present, { size });
      insert([{ ...node, position } as EditorNode], []);
    },
    [insert, visibleRect, current],
  );

  const onDragOver = useCallback(
    (e: DragEvent) => {
      if (readOnly || !isPaletteDrag(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    },
    [readOnly],
  );
  const onDrop = useCallback(
    (e: DragEvent) => {
      const drop = readOnly ? null : readPaletteDrop(e);
      if (!drop) return;
      e.preventDefault();
      addFromPalette(drop, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
    },
    [flow, addFromPalette, readOnly],
  );

  const paste = useCallback(
    (clip: NodeClipboard, offset: { x: number; y: number }) => {
      const present = current();
      const out = pasteNodes(clip, new Set(present.nodes.map((n) => n.id)), present.edges, offset);
      // Copied somewhere out of sight (another flow, or the view moved): paste in the middle of the view.
      const view = visibleRect();
      const xs = out.nodes.map((n) => n.position.x);
      const ys = out.nodes.map((n) => n.position.y);
      const box = { x: Math.min(...xs), y: Math.min(...ys), right: Math.max(...xs) + DEFAULT_NODE_SIZE.width, bottom: Math.max(...ys) + DEFAULT_NODE_SIZE.height };
      if (view && (box.right < view.x || box.x > view.x + view.width || box.bottom < view.y || box.y > view.y + view.height)) {
        const dx = view.x + view.width / 2 - (box.x + box.right) / 2;
        const dy = view.y + view.height / 2 - (box.y + box.bottom) / 2;
        for (const n of out.nodes) n.position = { x: n.position.x + dx, y: n.position.y + dy };
      }
      insert(out.nodes, out.edges);
    },
    [insert, visibleRect, current],
  );
  const clipboard = useClipboard({ current, paste });

  const fitView = useCallback(() => void flow.fitView(FIT), [flow]);
  // After a change of many positions (layout, import), fit once React Flow has the new nodes.
  useEffect(() => {
    if (!fitPending) return;
    setFitPending(false);
    void flow.fitView(FIT);
  }, [fitPending, flow]);

  const layout = useCallback(() => {
    if (current().nodes.length === 0) return;
    change();
    setNodes((ns) => autoLayout(ns, current().edges, { direction: "LR" }));
    setFitPending(true);
  }, [change, setNodes, current]);

  const selectAll = useCallback(() => {
    setNodes((ns) => ns.map((n) => (n.selected ? n : { ...n, selected: true })));
    setEdges((es) => es.map((e) => (e.selected ? e : { ...e, selected: true })));
  }, [setNodes, setEdges]);

  const importDocument = useCallback(
    (imported: FlowDocument) => {
      replace(imported);
      setFitPending(true);
    },
    [replace],
  );

  const handleSave = useStableHandler(async () => {
    if (readOnly || saveState.status === "saving") return;
    const sent = doc.revision;
    // A held-back edit is saved in place of its node's data, so the save refuses and names the field.
    const saved = pending ? nodes.map((n) => (n.id === pending.nodeId ? ({ ...n, data: pending.data } as EditorNode) : n)) : nodes;
    if (await save(fromReactFlow(settings, saved, edges), message.trim())) {
      doc.markSaved(sent);
      setSavedShape(runShape(settings, saved, edges));
      setMessage("");
    }
  });
  const onSave = useCallback(() => void handleSave(), [handleSave]);
  const exportFlow = useStableHandler(() => downloadFlow(fromReactFlow(settings, nodes, edges)));
  const closeDialog = useCallback(() => setDialog(null), []);
  const openImport = useCallback(() => setDialog("import"), []);
  const openHelp = useCallback(() => setDialog("shortcuts"), []);
  const openSettings = useCallback(() => setDialog("settings"), []);
  const showProblems = useCallback(() => setProblemsOpen(true), []);

  // A read-only editor keeps only the shortcuts that change nothing (copy, select, zoom, help).
  const none = () => {};
  useShortcuts({
    save: onSave,
    undo: readOnly ? none : undo,
    redo: readOnly ? none : redo,
    copy: clipboard.copy,
    paste: readOnly ? none : clipboard.requestPaste,
    duplicate: readOnly ? none : clipboard.duplicate,
    selectAll,
    autoLayout: readOnly ? none : layout,
    fitView,
    help: openHelp,
  });
  // Alt+, opens Flow settings (by key position, so it works whatever Alt+, types on the layout).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code !== "Comma" || !e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || isEditableTarget(e.target)) return;
      e.preventDefault();
      setDialog((d) => d ?? "settings");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useLeaveGuard(doc.dirty || pending !== null);

  const catalog = useMemo(() => new Map(tools.map((t) => [t.name, t])), [tools]);
  // Validation, coverage and the problems panel read the structure only: stable while dragging.
  const structure = useStructure(nodes, edges);
  const policies = useMemo(() => structure.nodes.filter((n): n is PolicyNodeType => n.type === "policy"), [structure.nodes]);
  const problemList = useMemo(
    () =>
      validateFlow(
        structure,
        { known: (name) => catalog.has(name), sideEffect: (name) => catalog.get(name)?.sideEffect ?? true },
        providers ? { configured: (name) => providers.includes(name) } : undefined,
      ),
    [structure, catalog, providers],
  );
  const problems = useMemo(() => {
    const byNode = new Map<string, FlowProblem[]>();
    for (const p of problemList) if (p.nodeId) byNode.set(p.nodeId, [...(byNode.get(p.nodeId) ?? []), p]);
    return byNode;
  }, [problemList]);
  const context = useMemo(() => ({ tools: catalog, policies, problems }), [catalog, policies, problems]);
  const errors = problemList.filter((p) => p.severity === "error").length;
  // Unsaved edits that a run would see (not positions): only these say "Save first".
  const shape = useMemo(() => runShape(settings, structure.nodes, structure.edges), [settings, structure]);
  const runSeesEdits = doc.dirty && shape !== savedShape;
  const selection = useSelection(nodes, edges);
  const toolbarActions = useMemo(
    () => ({
      canUndo: doc.canUndo,
      canRedo: doc.canRedo,
      onUndo: undo,
      onRedo: redo,
      onAutoLayout: layout,
      onFitView: fitView,
      onExport: exportFlow,
      onImport: openImport,
      onHelp: openHelp,
      onSettings: openSettings,
      onShowProblems: showProblems,
    }),
    [doc.canUndo, doc.canRedo, undo, redo, layout, fitView, exportFlow, openImport, openHelp, openSettings, showProblems],
  );

  /** A problem picked in the panel: select its edge or node and bring it into view. */
  const pickProblem = useCallback(
    (p: FlowProblem) => {
      const edge = p.edgeId ? current().edges.find((e) => e.id === p.edgeId) : undefined;
      const nodeIds = edge ? [edge.source, edge.target] : p.nodeId ? [p.nodeId] : [];
      setNodes((ns) => ns.map((n) => ({ ...n, selected: !edge && n.id === p.nodeId })));
      setEdges((es) => es.map((e) => ({ ...e, selected: e.id === edge?.id })));
      if (nodeIds.length > 0) void flow.fitView({ nodes: nodeIds.map((id) => ({ id })), padding: 0.6, maxZoom: 1.25, duration: 300 });
    },
    [flow, setNodes, setEdges, current],
  );

  return (
    <>
      <MemoRunBar flowId={flowId} nodes={structure.nodes} reason={runDeniedReason(access) ?? runBlockedReason(problemList, runSeesEdits)} {...(defaultTask === undefined ? {} : { defaultTask })} />
      <div className={styles.editor}>
        <MemoToolbar
          flowId={flowId}
          name={settings.name}
          version={version}
          dirty={doc.dirty}
          save={saveState}
          message={message}
          onMessageChange={setMessage}
          onSave={onSave}
          onDismissError={dismissError}
          errors={errors}
          warnings={problemList.length - errors}
          readOnlyReason={readOnlyReason}
          actions={toolbarActions}
        />
        <EditorContext value={context}>
          <div className={styles.body}>
            {readOnly ? null : <MemoPalette tools={tools} tool={paletteTool} onToolChange={setPaletteTool} onAdd={addFromPalette} />}
            <div className={styles.main}>
              {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for palette drags; keyboard users add from the palette with Enter */}
              <div className={styles.canvas} data-testid="flow-canvas" ref={canvasRef} onDragOver={onDragOver} onDrop={onDrop}>
                <ReactFlow<EditorNode, EditorEdge>
                  nodes={nodes}
                  edges={edges}
                  nodeTypes={nodeTypes}
                  {...doc.flowHandlers}
                  deleteKeyCode={dialog || readOnly ? null : DELETE_KEYS}
                  nodesDraggable={!readOnly}
                  nodesConnectable={!readOnly}
                  multiSelectionKeyCode={MULTI_SELECT_KEYS}
                  defaultEdgeOptions={EDGE_OPTIONS}
                  colorMode="system"
                  // Only nodes and edges in view are mounted: a 1,000-node flow drags and pans at
                  // >= 50 fps instead of ~20 / ~5 (bench/canvas; hit testing and per-frame
                  // updates of off-screen elements dominated).
                  onlyRenderVisibleElements
                  fitView
                >
                  <Background />
                  <Controls />
                  {nodes.length <= MINIMAP_MAX_NODES ? <MiniMap<EditorNode> nodeColor={miniMapColor} pannable zoomable /> : null}
                  <ConnectionStatus />
                </ReactFlow>
              </div>
              <MemoProblemsPanel problems={problemList} nodes={structure.nodes} open={problemsOpen} onOpenChange={setProblemsOpen} onPick={pickProblem} />
            </div>
            <Inspector
              nodes={structure.nodes}
              edges={structure.edges}
              selection={selection}
              tools={tools}
              onNodeData={doc.inspectorHandlers.onNodeData}
              onDisconnect={doc.inspectorHandlers.onDisconnect}
              onPendingChange={setPending}
              readOnlyReason={readOnlyReason}
            />
          </div>
        </EditorContext>
        <MemoShortcutsDialog open={dialog === "shortcuts"} onClose={closeDialog} />
        <MemoImportDialog open={dialog === "import" && !readOnly} onClose={closeDialog} onImport={importDocument} />
        <MemoFlowSettingsDialog open={dialog === "settings"} settings={settings} onClose={closeDialog} onApply={updateSettings} readOnlyReason={readOnlyReason} />
      </div>
    </>
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
