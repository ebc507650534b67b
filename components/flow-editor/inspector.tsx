"use client";

import { type ReactNode, useId } from "react";
import { type AgentNodeType, type EditorEdge, type EditorNode, type SupervisorNodeType, type ToolNodeType, withData } from "@/lib/flow/react-flow";
import { AgentData } from "@/lib/flow/schema";
import type { CatalogTool } from "./editor-context";
import styles from "./flow-editor.module.css";
import { PolicyFields } from "./policy-fields";

const AgentRole = AgentData.shape.role.unwrap();

export interface InspectorProps {
  nodes: readonly EditorNode[];
  edges: readonly EditorEdge[];
  tools: readonly CatalogTool[];
  /** Replaces the node with the same id (controlled: called on every keystroke). */
  onNodeChange: (node: EditorNode) => void;
  onDisconnect: (edgeId: string) => void;
}

/** The side panel: edits the one selected node, or disconnects the one selected edge. */
export function Inspector({ nodes, edges, tools, onNodeChange, onDisconnect }: InspectorProps) {
  const selectedNodes = nodes.filter((n) => n.selected);
  const selectedEdges = edges.filter((e) => e.selected);
  const node = selectedNodes.length === 1 && selectedEdges.length === 0 ? selectedNodes[0] : undefined;
  const edge = selectedNodes.length === 0 && selectedEdges.length === 1 ? selectedEdges[0] : undefined;
  const count = selectedNodes.length + selectedEdges.length;

  let body: ReactNode;
  if (node) body = <NodeFields key={node.id} node={node} tools={tools} onChange={onNodeChange} />;
  else if (edge) body = <EdgeFields edge={edge} nodes={nodes} onDisconnect={onDisconnect} />;
  else if (count > 1) body = <p className={styles.hint}>{count} items selected. Press Delete to remove them.</p>;
  else
    body = (
      <p className={styles.hint} data-testid="inspector-hint">
        Select a node to edit it. Drag from a handle to connect.
      </p>
    );

  return (
    <aside className={styles.inspector} data-testid="inspector" aria-label="Inspector">
      {body}
    </aside>
  );
}

function NodeFields({
  node,
  tools,
  onChange,
}: {
  node: EditorNode;
  tools: readonly CatalogTool[];
  onChange: (node: EditorNode) => void;
}) {
  switch (node.type) {
    case "agent":
      return <AgentFields node={node} onChange={onChange} />;
    case "supervisor":
      return <SupervisorFields node={node} onChange={onChange} />;
    case "tool":
      return <ToolFields node={node} tools={tools} onChange={onChange} />;
    case "policy":
      return <PolicyFields node={node} tools={tools} onChange={onChange} />;
    case "start":
    case "end":
      return (
        <section>
          <h2 className={styles.inspectorTitle}>{node.data.label}</h2>
          <p className={styles.hint}>
            The {node.type} of the flow has nothing to edit. Connect it with a drag from its handle.
          </p>
        </section>
      );
  }
}

/** A copy of `node` with some data fields replaced. */
function AgentFields({ node, onChange }: { node: AgentNodeType; onChange: (node: AgentNodeType) => void }) {
  const id = useId();
  const { data } = node;
  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>
        {data.icon} Agent <small className={styles.muted}>{node.id}</small>
      </h2>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        data-testid="inspector-agent-name"
        value={data.name}
        maxLength={80}
        onChange={(e) => onChange(withData(node, { name: e.target.value }))}
      />
      <label htmlFor={`${id}-role`}>Role</label>
      <select
        id={`${id}-role`}
        data-testid="inspector-agent-role"
        value={data.role}
        onChange={(e) => onChange(withData(node, { role: AgentRole.parse(e.target.value) }))}
      >
        {AgentRole.options.map((role) => (
          <option key={role} value={role}>
            {role.replaceAll("_", " ")}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-instructions`}>Instructions</label>
      <textarea
        id={`${id}-instructions`}
        data-testid="inspector-agent-instructions"
        rows={8}
        value={data.instructions}
        onChange={(e) => onChange(withData(node, { instructions: e.target.value }))}
      />
      <label htmlFor={`${id}-model`}>Model</label>
      <input
        id={`${id}-model`}
        data-testid="inspector-agent-model"
        value={data.model}
        maxLength={200}
        placeholder="flow default (e.g. gpt-4.1-mini, claude-sonnet-4-5)"
        onChange={(e) => onChange(withData(node, { model: e.target.value }))}
      />
      <label htmlFor={`${id}-tries`}>Max tries</label>
      <select
        id={`${id}-tries`}
        data-testid="inspector-agent-max-tries"
        value={data.maxTries}
        onChange={(e) => onChange(withData(node, { maxTries: Number(e.target.value) }))}
      >
        {Array.from({ length: 10 }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </section>
  );
}

function SupervisorFields({
  node,
  onChange,
}: {
  node: SupervisorNodeType;
  onChange: (node: SupervisorNodeType) => void;
}) {
  const id = useId();
  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>
        Supervisor <small className={styles.muted}>{node.id}</small>
      </h2>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        data-testid="inspector-supervisor-name"
        value={node.data.name}
        onChange={(e) => onChange(withData(node, { name: e.target.value }))}
      />
      <label htmlFor={`${id}-instructions`}>Instructions</label>
      <textarea
        id={`${id}-instructions`}
        data-testid="inspector-supervisor-instructions"
        rows={8}
        value={node.data.instructions}
        onChange={(e) => onChange(withData(node, { instructions: e.target.value }))}
      />
    </section>
  );
}

function ToolFields({
  node,
  tools,
  onChange,
}: {
  node: ToolNodeType;
  tools: readonly CatalogTool[];
  onChange: (node: ToolNodeType) => void;
}) {
  const id = useId();
  const current = tools.find((t) => t.name === node.data.tool);
  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>
        Tool <small className={styles.muted}>{node.id}</small>
      </h2>
      <label htmlFor={`${id}-tool`}>Tool</label>
      <select
        id={`${id}-tool`}
        data-testid="inspector-tool-select"
        value={node.data.tool}
        onChange={(e) => onChange(withData(node, { tool: e.target.value }))}
      >
        {!current && <option value={node.data.tool}>{node.data.tool} (not in catalog)</option>}
        {tools.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name}
            {t.sideEffect ? " (side effect)" : ""}
          </option>
        ))}
      </select>
      {current && <p className={styles.hint}>{current.description}</p>}
    </section>
  );
}

function EdgeFields({
  edge,
  nodes,
  onDisconnect,
}: {
  edge: EditorEdge;
  nodes: readonly EditorNode[];
  onDisconnect: (edgeId: string) => void;
}) {
  const name = (nodeId: string) => {
    const node = nodes.find((n) => n.id === nodeId);
    return node ? nodeName(node) : nodeId;
  };
  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>Connection</h2>
      <p>
        {name(edge.source)} → {name(edge.target)}
      </p>
      <button type="button" className={styles.danger} data-testid="edge-disconnect" onClick={() => onDisconnect(edge.id)}>
        Disconnect
      </button>
    </section>
  );
}

function nodeName(node: EditorNode): string {
  switch (node.type) {
    case "start":
    case "end":
      return node.data.label;
    case "tool":
      return node.data.tool;
    default:
      return node.data.name;
  }
}
