"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId, useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { nodeDataSchema } from "@/lib/flow/node-data";
import type { PolicyRule } from "@/lib/flow/schema";
import type { CatalogTool } from "./editor-context";
import { FIELD_MESSAGES, Field, FieldError, fieldAria, type NodeFormProps, NodeFormFrame, ownErrorAt, useNodeFormSync } from "./inspector-form";
import styles from "./inspector.module.css";
import { KindIcon } from "./kind-icon";
import { RuleRow } from "./policy-fields";

const PolicyData = nodeDataSchema("policy");
const resolver = zodResolver(PolicyData, FIELD_MESSAGES);

export interface PolicyFormProps extends NodeFormProps<"policy"> {
  /** The workspace's tool catalog: the "Add a rule for" choices and their side effects. */
  tools: readonly CatalogTool[];
}

/**
 * The inspector of a policy node (docs/architecture.md#policies): its name and ordered rules (add, remove,
 * move up and down), each with a tool name or glob, decision, risk, permission level and
 * argument matchers. The first rule whose tool, permission and matchers all hold decides.
 */
export const PolicyForm = memo(function PolicyForm({ nodeId, data, onApply, onPending, tools }: PolicyFormProps) {
  const id = useId();
  const form = useForm({ resolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, PolicyData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: "rules" });
  const [newTool, setNewTool] = useState(tools[0]?.name ?? "*");
  const errors = form.formState.errors;

  const addRule = () => {
    // Tools with side effects need approval unless a rule says otherwise, so a new rule starts there.
    const sideEffect = newTool === "*" || (tools.find((t) => t.name === newTool)?.sideEffect ?? true);
    const rule: PolicyRule = { tool: newTool, decision: sideEffect ? "AUTH_REQUIRED" : "ALLOW", risk: "medium", permission: "any", match: [] };
    append(rule, { shouldFocus: true, focusName: `rules.${fields.length}.tool` });
  };

  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="policy" /> Policy
        </>
      }
    >
      <Field id={`${id}-name`} label="Name" path="name" error={errors.name?.message}>
        <input {...form.register("name")} {...fieldAria(`${id}-name`, errors.name?.message)} data-testid="inspector-policy-name" autoComplete="off" />
      </Field>
      <h3 className={styles.subTitle}>Rules</h3>
      <p className={styles.hint}>
        A policy applies to the whole flow: it needs no connection. Rules apply in order; the first rule whose tool, permission and argument matchers all hold decides. Tool may be a glob such as{" "}
        <code>*_file</code>.
      </p>
      <p className={styles.hint} data-testid="inspector-policy-defaults">
        A tool with no rule: allowed when it has no side effects. A tool with side effects needs a rule (in this or another Policy) before the flow can run; choose AUTH_REQUIRED to have a person
        approve each call.
      </p>
      {fields.map((field, index) => (
        <RuleRow key={field.id} form={form} index={index} count={fields.length} onMove={(by) => move(index, index + by)} onRemove={() => remove(index)} />
      ))}
      <FieldError path="rules" text={ownErrorAt(errors, "rules")} />
      <div className={styles.addRule}>
        <label htmlFor={`${id}-new-tool`}>Add a rule for</label>
        <select id={`${id}-new-tool`} data-testid="inspector-rule-add-tool" value={newTool} onChange={(e) => setNewTool(e.target.value)}>
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
    </NodeFormFrame>
  );
});
