"use client";

import { type InternalNode, Panel, type ReactFlowState, useStore } from "@xyflow/react";
import { Ban } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { connectionRefusal, kindRefusal, type RuleNode, WHOLE_FLOW_KINDS } from "@/lib/flow/connection-rule";
import { NODE_KIND_LABEL } from "@/lib/flow/node-defaults";
import type { EditorNode, NodeKind } from "@/lib/flow/react-flow";
import styles from "./flow-editor.module.css";

/** How long the reason stays after a refused drop, ms: time to read one sentence. */
const LINGER_MS = 5000;

function ruleNode(node: InternalNode | EditorNode | null | undefined): RuleNode | null {
  if (!node?.type || !(node.type in NODE_KIND_LABEL)) return null;
  return { id: node.id, type: node.type as NodeKind, data: node.data };
}

/** The node under a point of the canvas (container coordinates, px), if any: found in the DOM. */
function nodeUnder(state: ReactFlowState, pointer: { x: number; y: number }): RuleNode | null {
  const box = state.domNode?.getBoundingClientRect();
  if (!box) return null;
  const id = document
    .elementFromPoint(box.left + pointer.x, box.top + pointer.y)
    ?.closest(".react-flow__node")
    ?.getAttribute("data-id");
  return id ? ruleNode(state.nodeLookup.get(id)) : null;
}

/**
 * Why the connection being dragged would be refused, or null: over a handle that
 * `isValidConnection` refuses, the shared rule's sentence (lib/flow/connection-rule.ts);
 * over a handle of the same side, how to connect; over a node with no handle for it (a
 * Policy), why that kind takes no connection.
 */
function liveRefusal(state: ReactFlowState): string | null {
  const c = state.connection;
  if (!c.inProgress) return null;
  const from = ruleNode(c.fromNode);
  if (!from) return null;
  const forward = c.fromHandle.type === "source";
  if (c.toHandle && c.isValid === false) {
    if (c.toHandle.type === c.fromHandle.type) return "Connect the right-hand handle of one node to the left-hand handle of another.";
    const to = ruleNode(c.toNode);
    if (!to) return null;
    return forward ? connectionRefusal(from, to, state.edges) : connectionRefusal(to, from, state.edges);
  }
  if (c.toHandle) return null;
  const over = nodeUnder(state, c.pointer);
  if (!over || over.id === from.id || !WHOLE_FLOW_KINDS.has(over.type)) return null;
  const why = forward ? kindRefusal(from.type, over.type) : kindRefusal(over.type, from.type);
  return why ? `${NODE_KIND_LABEL[over.type]} cannot be connected: ${why}.` : null;
}

/**
 * A status line over the top of the canvas saying why the connection being dragged is
 * refused, while it is dragged and for a few seconds after a refused drop (an aria-live
 * region, `connection-status`, so screen readers hear it too). Rendered inside React Flow.
 */
export function ConnectionStatus() {
  const live = useStore(liveRefusal);
  const inProgress = useStore((s) => s.connection.inProgress);
  const [lingering, setLingering] = useState<string | null>(null);
  const last = useRef<string | null>(null);

  useEffect(() => {
    if (inProgress) {
      last.current = live;
      setLingering(null);
      return;
    }
    // The drag ended: a refusal still showing at the drop stays a moment, so it can be read.
    const dropped = last.current;
    last.current = null;
    if (!dropped) return;
    setLingering(dropped);
    const timer = setTimeout(() => setLingering(null), LINGER_MS);
    return () => clearTimeout(timer);
  }, [inProgress, live]);

  const message = live ?? lingering;
  return (
    <Panel position="top-center">
      <output aria-live="polite" data-testid="connection-status">
        {message ? (
          <span className={styles.connectionStatus}>
            <Ban size={14} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <span>
              <strong>Can't connect.</strong> {message}
            </span>
          </span>
        ) : null}
      </output>
    </Panel>
  );
}
