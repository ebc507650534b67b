"use client";

import { type ReactNode, useId, useState } from "react";
import type {
  AgentNodeType,
  EditorEdge,
  EditorNode,
  PolicyNodeType,
  SupervisorNodeType,
  ToolNodeType,
} from "@/lib/flow/react-flow";
import { AgentData, Decision, type PolicyRule, RiskLevel } from "@/lib/flow/schema";
import type { CatalogTool } from "./editor-context";
import styles from "./flow-editor.module.css";

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
function withData<N extends EditorNode>(node: N, patch: Partial<N["data"]>): N {
  return { ...node, data: { ...node.data, ...patch } };
}

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

function PolicyFields({
  node,
  tools,
  onChange,
}: {
  node: PolicyNodeType;
  tools: readonly CatalogTool[];
  onChange: (node: PolicyNodeType) => void;
}) {
  const id = useId();
  const [newTool, setNewTool] = useState(tools[0]?.name ?? "*");
  const { rules } = node.data;
  const setRules = (next: PolicyRule[]) => onChange(withData(node, { rules: next }));
  const setRule = (index: number, patch: Partial<PolicyRule>) =>
    setRules(rules.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rules];
    const [rule] = next.splice(index, 1);
    if (rule) next.splice(index + by, 0, rule);
    setRules(next);
  };
  const addRule = () => {
    const sideEffect = tools.find((t) => t.name === newTool)?.sideEffect ?? false;
    setRules([...rules, { tool: newTool, decision: sideEffect ? "AUTH_REQUIRED" : "ALLOW", risk: "medium" }]);
  };

  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>
        Policy <small className={styles.muted}>{node.id}</small>
      </h2>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        data-testid="inspector-policy-name"
        value={node.data.name}
        onChange={(e) => onChange(withData(node, { name: e.target.value }))}
      />
      <h3 className={styles.subTitle}>Rules</h3>
      <p className={styles.hint}>In order; the first rule whose tool matches decides.</p>
      {rules.map((rule, index) => (
        // Rules have no id; their position is their identity (first match wins).
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={index} className={styles.ruleRow} data-testid={`inspector-rule-${index}`}>
          <div className={styles.ruleHead}>
            <span>
              {index + 1}. <code>{rule.tool}</code>
            </span>
            <span className={styles.ruleButtons}>
              <button
                type="button"
                aria-label={`Move rule ${index + 1} up`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move rule ${index + 1} down`}
                disabled={index === rules.length - 1}
                onClick={() => move(index, 1)}
              >
                ↓
              </button>
              <button
                type="button"
                data-testid={`inspector-rule-remove-${index}`}
                onClick={() => setRules(rules.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </span>
          </div>
          <div className={styles.ruleFields}>
            <label>
              Decision
              <select
                data-testid={`inspector-rule-decision-${index}`}
                value={rule.decision}
                onChange={(e) => setRule(index, { decision: Decision.parse(e.target.value) })}
              >
                {Decision.options.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Risk
              <select
                data-testid={`inspector-rule-risk-${index}`}
                value={rule.risk}
                onChange={(e) => setRule(index, { risk: RiskLevel.parse(e.target.value) })}
              >
                {RiskLevel.options.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
      ))}
      <div className={styles.addRule}>
        <label htmlFor={`${id}-new-tool`}>Add a rule for</label>
        <select
          id={`${id}-new-tool`}
          data-testid="inspector-rule-add-tool"
          value={newTool}
          onChange={(e) => setNewTool(e.target.value)}
        >
          <option value="*">* (any tool)</option>
          {tools.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name}
            </option>
          ))}
        </select>
        <button type="button" data-testid="inspector-rule-add" onClick={addRule}>
          Add rule
        </button>
      </div>
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
