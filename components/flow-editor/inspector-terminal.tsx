"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId } from "react";
import { useForm } from "react-hook-form";
import { nodeDataSchema } from "@/lib/flow/node-data";
import { FIELD_MESSAGES, Field, fieldAria, type NodeFormProps, NodeFormFrame, useNodeFormSync } from "./inspector-form";
import styles from "./inspector.module.css";
import { KindIcon } from "./kind-icon";
import { ModelFields } from "./model-fields";

const StartData = nodeDataSchema("start");
const EndData = nodeDataSchema("end");
const startResolver = zodResolver(StartData, FIELD_MESSAGES);
const endResolver = zodResolver(EndData, FIELD_MESSAGES);

/** The inspector of the Start node: its label; the run enters the flow here. */
export const StartForm = memo(function StartForm({ nodeId, data, onApply, onPending }: NodeFormProps<"start">) {
  const id = useId();
  const form = useForm({ resolver: startResolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, StartData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const error = form.formState.errors.label?.message;
  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="start" /> Start
        </>
      }
    >
      <Field id={`${id}-label`} label="Label" path="label" error={error}>
        <input {...form.register("label")} {...fieldAria(`${id}-label`, error)} data-testid="inspector-start-label" autoComplete="off" />
      </Field>
      <p className={styles.hint}>Where a run enters the flow. Connect it to the Supervisor, or to a Router.</p>
    </NodeFormFrame>
  );
});

/** The inspector of an End node: its label, and the finalizer's model settings (docs/models.md); the Supervisor finishes here. */
export const EndForm = memo(function EndForm({ nodeId, data, onApply, onPending }: NodeFormProps<"end">) {
  const id = useId();
  const form = useForm({ resolver: endResolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, EndData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const error = form.formState.errors.label?.message;
  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="end" /> End
        </>
      }
    >
      <Field id={`${id}-label`} label="Label" path="label" error={error}>
        <input {...form.register("label")} {...fieldAria(`${id}-label`, error)} data-testid="inspector-end-label" autoComplete="off" />
      </Field>
      <p className={styles.hint}>Where the Supervisor finishes. Connect the Supervisor to it. The final answer is written with the model below.</p>
      <ModelFields id={id} testId="inspector-end" register={form.register as never} errors={form.formState.errors} />
    </NodeFormFrame>
  );
});
