"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { NODE_KIND_LABEL } from "@/lib/flow/node-defaults";
import { useId } from "react";
import type { EditorNode } from "@/lib/flow/react-flow";
import type { FlowProblem } from "@/lib/flow/validate";
import styles from "./flow-editor.module.css";

export interface ProblemsPanelProps {
  /** Live validation problems, errors first (validateFlow sorts them). */
  problems: readonly FlowProblem[];
  nodes: readonly EditorNode[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A problem was picked: select and show its node (or edge). */
  onPick: (problem: FlowProblem) => void;
}

function nodeLabel(node: EditorNode | undefined): string | null {
  if (!node) return null;
  const data = node.data as { name?: unknown; tool?: unknown; label?: unknown };
  const name = [data.name, data.tool, data.label].find((v): v is string => typeof v === "string" && v.length > 0) ?? node.id;
  return `${NODE_KIND_LABEL[node.type]} “${name}”`;
}

/**
 * The problems panel: every live validation problem, errors then warnings, with
 * the node it is about; picking one selects and centres that node. Collapsible; the
 * toolbar's count badge opens it.
 */
export function ProblemsPanel({ problems, nodes, open, onOpenChange, onPick }: ProblemsPanelProps) {
  const id = useId();
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const summary = problems.length === 0 ? "No problems" : [plural(errors, "error"), plural(warnings, "warning")].filter(Boolean).join(", ");
  return (
    <section className={styles.problems} data-testid="problems-panel" aria-labelledby={`${id}-title`} data-open={open}>
      <button type="button" className={styles.problemsHead} aria-expanded={open} aria-controls={`${id}-list`} onClick={() => onOpenChange(!open)} data-testid="problems-toggle">
        {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
        <strong id={`${id}-title`}>Problems</strong>
        <span className={errors > 0 ? styles.problemsErrors : styles.muted}>{summary}</span>
      </button>
      {open && (
        <ol id={`${id}-list`} className={styles.problemList}>
          {problems.length === 0 && <li className={styles.muted}>The flow is valid: it can run once saved.</li>}
          {problems.map((p, i) => {
            const where = p.nodeId ? nodeLabel(byId.get(p.nodeId)) : null;
            const body = (
              <>
                <span className={p.severity === "error" ? styles.problemError : styles.problemWarning}>{p.severity === "error" ? "Error" : "Warning"}</span>
                <span className={styles.problemMessage}>
                  {p.message}
                  {where && (
                    <span className={styles.problemWhere}>
                      {" "}
                      — {where}
                      {p.field ? `, field ${p.field}` : ""}
                    </span>
                  )}
                </span>
              </>
            );
            const attrs = { className: styles.problem, "data-severity": p.severity, "data-code": p.code, "data-node": p.nodeId ?? "", "data-testid": `problem-${i}` };
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id; the list is rebuilt on every change
              <li key={i}>
                {p.nodeId || p.edgeId ? (
                  <button type="button" {...attrs} onClick={() => onPick(p)} title="Show on the canvas">
                    {body}
                  </button>
                ) : (
                  <div {...attrs}>{body}</div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function plural(n: number, word: string): string {
  if (n === 0) return "";
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
