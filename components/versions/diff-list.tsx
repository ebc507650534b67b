import type { FieldChange, FlowDiff } from "@/lib/flow/diff";
import { isEmptyDiff, nodeLabel } from "@/lib/flow/diff";
import type { FlowEdge, FlowNode } from "@/lib/flow/schema";
import { formatValue, KIND_LABEL } from "./format";
import styles from "./versions.module.css";

/** One field change: `data.instructions: "old" → "new"`, `data.rules.5 added: {…}`. */
function Field({ change }: { change: FieldChange }) {
  return (
    <li data-testid="diff-field" data-path={change.path} data-kind={change.kind} title={change.kind === "changed" ? undefined : change.kind}>
      <code>{change.path}</code>
      {change.kind === "changed" ? (
        <>
          : <del>{formatValue(change.before)}</del> → <ins>{formatValue(change.after)}</ins>
        </>
      ) : change.kind === "added" ? (
        <>
          {" "}
          added: <ins>{formatValue(change.after)}</ins>
        </>
      ) : (
        <>
          {" "}
          removed: <del>{formatValue(change.before)}</del>
        </>
      )}
    </li>
  );
}

function Fields({ fields }: { fields: FieldChange[] }) {
  if (fields.length === 0) return null;
  return (
    <ul className={styles.fields}>
      {fields.map((f) => (
        <Field key={`${f.kind}:${f.path}`} change={f} />
      ))}
    </ul>
  );
}

const nodeName = (n: FlowNode) => `${KIND_LABEL[n.type] ?? n.type} “${nodeLabel(n)}”`;
const edgeText = (e: { source: string; target: string }) => `${e.source} → ${e.target}`;

function NodeItem({ node, change }: { node: FlowNode; change: "added" | "removed" }) {
  return (
    <li className={styles.item} data-testid={`diff-item-${node.id}`} data-change={change}>
      <strong>{nodeName(node)}</strong> <span className="muted small">({node.id})</span> {change}
    </li>
  );
}

function EdgeItem({ edge, change }: { edge: FlowEdge; change: "added" | "removed" }) {
  return (
    <li className={styles.item} data-testid={`diff-edge-${edge.id}`} data-change={change}>
      {edgeText(edge)} <span className="muted small">({edge.id})</span> {change}
    </li>
  );
}

/**
 * The changes between two versions as a list: settings, nodes (added, removed,
 * changed with field-level changes, moved) and edges, or "No differences".
 */
export function DiffList({ diff }: { diff: FlowDiff }) {
  if (isEmptyDiff(diff)) {
    return (
      <p className="card muted" data-testid="diff-empty">
        No differences: both versions have the same settings, nodes, positions and edges.
      </p>
    );
  }
  const { nodes, edges } = diff;
  const nodeCount = nodes.added.length + nodes.removed.length + nodes.changed.length;
  const edgeCount = edges.added.length + edges.removed.length + edges.changed.length;
  return (
    <div className={`card ${styles.changes}`} data-testid="diff-list">
      {diff.settings.length > 0 ? (
        <section data-testid="diff-settings">
          <h2>Settings</h2>
          <Fields fields={diff.settings} />
        </section>
      ) : null}
      {nodeCount > 0 ? (
        <section data-testid="diff-nodes">
          <h2>Nodes ({nodeCount})</h2>
          <ul className={styles.items}>
            {nodes.changed.map((c) => (
              <li key={c.id} className={styles.item} data-testid={`diff-item-${c.id}`} data-change={c.change}>
                <strong>{`${KIND_LABEL[c.type] ?? c.type} “${c.label}”`}</strong> <span className="muted small">({c.id})</span> {c.change}
                <Fields fields={c.fields} />
                {c.moved ? (
                  <p className="muted small" data-testid="diff-moved">
                    moved from ({Math.round(c.moved.from.x)}, {Math.round(c.moved.from.y)}) to ({Math.round(c.moved.to.x)}, {Math.round(c.moved.to.y)})
                  </p>
                ) : null}
              </li>
            ))}
            {nodes.added.map((n) => (
              <NodeItem key={`added:${n.id}`} node={n} change="added" />
            ))}
            {nodes.removed.map((n) => (
              <NodeItem key={`removed:${n.id}`} node={n} change="removed" />
            ))}
          </ul>
        </section>
      ) : null}
      {edgeCount > 0 ? (
        <section data-testid="diff-edges">
          <h2>Edges ({edgeCount})</h2>
          <ul className={styles.items}>
            {edges.changed.map((c) => (
              <li key={c.id} className={styles.item} data-testid={`diff-edge-${c.id}`} data-change="changed">
                {edgeText(c.after)} <span className="muted small">({c.id})</span> changed
                <Fields fields={c.fields} />
              </li>
            ))}
            {edges.added.map((e) => (
              <EdgeItem key={`added:${e.id}`} edge={e} change="added" />
            ))}
            {edges.removed.map((e) => (
              <EdgeItem key={`removed:${e.id}`} edge={e} change="removed" />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
