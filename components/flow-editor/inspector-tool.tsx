"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId } from "react";
import { useForm } from "react-hook-form";
import { toolCoverage } from "@/lib/flow/coverage-memo";
import { nodeDataSchema } from "@/lib/flow/node-data";
import type { PolicyNodeType } from "@/lib/flow/react-flow";
import type { CatalogTool } from "./editor-context";
import { KindIcon } from "./kind-icon";
import { groupBySource, sourceLabel, toolSource } from "./palette";
import { FIELD_MESSAGES, Field, fieldAria, type NodeFormProps, NodeFormFrame, useNodeFormSync } from "./inspector-form";
import styles from "./inspector.module.css";

const ToolData = nodeDataSchema("tool");
const resolver = zodResolver(ToolData, FIELD_MESSAGES);

export interface ToolFormProps extends NodeFormProps<"tool"> {
  /** The workspace's tool catalog, by name. */
  tools: readonly CatalogTool[];
  /** The flow's policy nodes in document order, for the coverage line (docs/architecture.md#policies). */
  policies: readonly PolicyNodeType[];
}

/** The input schema of a catalog tool (ToolCatalogEntry.inputSchema), read defensively: CatalogTool does not declare it. */
function inputSchemaOf(tool: CatalogTool): unknown {
  return (tool as { inputSchema?: unknown }).inputSchema;
}

/**
 * The inspector of a Tool node (docs/architecture.md#flows-and-compilation): which catalog tool it binds (grouped by
 * source: built-in or an MCP server), what the tool does, where it comes from,
 * whether it has side effects, its input schema, and which policy rule decides it; a tool
 * with side effects that no rule covers shows "needs a rule" (validation refuses the flow
 * until one does), never a default decision it would not get to.
 */
export const ToolForm = memo(function ToolForm({ nodeId, data, onApply, onPending, tools, policies }: ToolFormProps) {
  const id = useId();
  const form = useForm({ resolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, ToolData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const error = form.formState.errors.tool?.message;
  const entry = tools.find((t) => t.name === data.tool);
  const sideEffect = entry?.sideEffect ?? true;
  const { coverage, needsRule, title } = toolCoverage(policies, data.tool, sideEffect);

  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="tool" /> Tool
        </>
      }
    >
      <Field id={`${id}-tool`} label="Catalog tool" path="tool" error={error}>
        <select {...form.register("tool")} {...fieldAria(`${id}-tool`, error)} data-testid="inspector-tool-select">
          {!entry && <option value={data.tool}>{data.tool} (not in catalog)</option>}
          {groupBySource(tools).map((g) => (
            <optgroup key={g.source} label={g.label}>
              {g.tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                  {t.sideEffect ? " (side effect)" : ""}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
      <div className={styles.toolInfo}>
        {entry ? <p data-testid="inspector-tool-description">{entry.description}</p> : <p className={styles.badgeUnknown}>"{data.tool}" is not in the tool catalog: pick one of the list.</p>}
        {entry && (
          <div className={styles.badges}>
            <span className={styles.badge} data-testid="inspector-tool-source">
              {sourceLabel(toolSource(entry))}
            </span>
            {entry.sideEffect ? (
              <span className={`${styles.badge} ${styles.badgeSideEffect}`} data-testid="inspector-tool-side-effect">
                side effect: changes things
              </span>
            ) : (
              <span className={`${styles.badge} ${styles.badgeReadOnly}`}>no side effects</span>
            )}
          </div>
        )}
        {entry && inputSchemaOf(entry) !== undefined && (
          <details data-testid="inspector-tool-schema">
            <summary className={styles.muted}>Input schema</summary>
            <pre style={{ maxHeight: 240, overflow: "auto", fontSize: "0.8em" }}>{JSON.stringify(inputSchemaOf(entry), null, 2)}</pre>
          </details>
        )}
        <div className={styles.badges}>
          <span className={styles.muted}>Policy decision</span>
          {needsRule ? (
            <span className={`${styles.badge} ${styles.badgeNeedsRule}`} data-testid="inspector-tool-decision" data-decision="none">
              needs a rule
            </span>
          ) : (
            <span className={`${styles.badge} ${styles[`decision-${coverage.decision}`] ?? ""}`} data-testid="inspector-tool-decision">
              {coverage.decision}
            </span>
          )}
        </div>
        <p className={styles.coverage} data-testid="inspector-tool-coverage">
          {title}
        </p>
      </div>
    </NodeFormFrame>
  );
});
