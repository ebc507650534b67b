"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId } from "react";
import { useForm } from "react-hook-form";
import { nodeDataSchema } from "@/lib/flow/node-data";
import { FIELD_MESSAGES, Field, fieldAria, type NodeFormProps, NodeFormFrame, useNodeFormSync } from "./inspector-form";
import { KindIcon } from "./kind-icon";
import { ModelFields } from "./model-fields";

const SupervisorData = nodeDataSchema("supervisor");
const resolver = zodResolver(SupervisorData, FIELD_MESSAGES);

/** The inspector of the Supervisor/Planner (docs/architecture.md#flows-and-compilation): its name, planning instructions, and the Planner's model settings (docs/models.md). */
export const SupervisorForm = memo(function SupervisorForm({ nodeId, data, onApply, onPending }: NodeFormProps<"supervisor">) {
  const id = useId();
  const form = useForm({ resolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, SupervisorData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="supervisor" /> Supervisor
        </>
      }
    >
      <Field id={`${id}-name`} label="Name" path="name" error={errors.name?.message}>
        <input {...register("name")} {...fieldAria(`${id}-name`, errors.name?.message)} data-testid="inspector-supervisor-name" autoComplete="off" />
      </Field>
      <Field id={`${id}-instructions`} label="Instructions" path="instructions" error={errors.instructions?.message} hint="How to plan the task into steps and pick an agent for each.">
        <textarea {...register("instructions")} {...fieldAria(`${id}-instructions`, errors.instructions?.message, true)} data-testid="inspector-supervisor-instructions" rows={8} />
      </Field>
      <ModelFields id={id} testId="inspector-supervisor" register={register as never} errors={errors} />
    </NodeFormFrame>
  );
});
